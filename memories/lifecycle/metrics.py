"""Prometheus counters for the lifecycle jobs, registered in the default registry (served at /metrics).

Counts are published per item as the job goes, so the work a job committed before it failed is
still counted.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

LIFECYCLE_ITEMS = Counter(
    "memgov_lifecycle_items",
    "Items a lifecycle job handled, by job and outcome (expired, archived, purged, skipped_not_dirty, ...).",
    ["job", "outcome"],
)
LIFECYCLE_RUNS = Counter(
    "memgov_lifecycle_runs",
    "Lifecycle job runs, by job and result (ok or error).",
    ["job", "result"],
)
LIFECYCLE_RUN_SECONDS = Histogram(
    "memgov_lifecycle_run_seconds",
    "Wall time of one lifecycle job run (one bounded batch).",
    ["job"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300),
)
