"""What every lifecycle job shares: the result it returns, and how it claims one row safely.

Each job selects a bounded batch of candidate ids, then handles each id in its own transaction:
claim the row again *with its condition* (so a row another worker already changed is not
touched twice), apply the change through the record services (which audit it in the same
transaction), commit. A failure rolls back only the item in hand; the next run picks it up again.

Claiming: on PostgreSQL, ``SELECT … FOR UPDATE SKIP LOCKED`` — a row another worker is changing
is skipped, not waited for. On SQLite, every write transaction starts with ``BEGIN IMMEDIATE``
(see settings), so transactions run one at a time and the re-read inside the transaction sees
the other worker's committed change: the condition no longer matches and the row is skipped.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TypeVar

from django.db import connection
from django.db.models import Model, QuerySet

from memories.lifecycle.metrics import LIFECYCLE_ITEMS, LIFECYCLE_RUN_SECONDS, LIFECYCLE_RUNS

logger = logging.getLogger("memgov.lifecycle")

DEFAULT_BATCH_SIZE = 200

M = TypeVar("M", bound=Model)


def job_actor(job: str) -> str:
    """The actor recorded in the audit log for a job's changes."""
    return f"system:lifecycle.{job}"


@dataclass
class JobResult:
    """Counts per outcome of one bounded run. ``has_more``: the batch was full, run again."""

    job: str
    counts: Counter[str] = field(default_factory=Counter)
    has_more: bool = False

    def add(self, outcome: str, n: int = 1) -> None:
        if n <= 0:
            return
        self.counts[outcome] += n
        LIFECYCLE_ITEMS.labels(job=self.job, outcome=outcome).inc(n)

    def __getitem__(self, outcome: str) -> int:
        return self.counts[outcome]

    def as_dict(self) -> dict[str, object]:
        return {"job": self.job, "has_more": self.has_more, **dict(sorted(self.counts.items()))}


def claim(queryset: QuerySet[M]) -> M | None:
    """The first row of ``queryset`` locked for this transaction, or None if gone or taken.

    Must run inside ``transaction.atomic``. ``queryset`` carries the job's condition, so a row that
    no longer qualifies (another worker got there first) is not returned.
    """
    if connection.features.has_select_for_update_skip_locked:
        queryset = queryset.select_for_update(skip_locked=True, of=("self",))
    return queryset.first()


class timed_run:
    """Publishes a run's duration and ok/error result; logs the counts (never content)."""

    def __init__(self, result: JobResult) -> None:
        self.result = result

    def __enter__(self) -> JobResult:
        self.started = time.monotonic()
        return self.result

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        job = self.result.job
        LIFECYCLE_RUN_SECONDS.labels(job=job).observe(time.monotonic() - self.started)
        LIFECYCLE_RUNS.labels(job=job, result="error" if exc_type else "ok").inc()
        if exc_type:
            logger.warning("lifecycle %s failed after %s: %s", job, dict(self.result.counts), exc_type.__name__)
        else:
            logger.info("lifecycle %s: %s", job, self.result.as_dict())
