"""Every periodic job by name: phase 1 extraction, the memory lifecycle's (``memories.lifecycle``) and the
session purge.

``manage.py run_lifecycle`` and the Celery beat schedule (config/celery.py) run these; the session purge
is listed here, above ``memories``, because ``memories`` may not import sessions.
"""

from __future__ import annotations

from conversations.extraction.run import extract_run
from conversations.services.retention import sessions_purge_run
from memories.lifecycle import MAX_BATCHES, JobRun, periodic_jobs, run_in_batches
from memories.lifecycle.base import DEFAULT_BATCH_SIZE


def all_periodic_jobs() -> dict[str, JobRun]:
    """Extraction first (phase 2, ``consolidate``, then sees its candidates), the memory jobs in their
    order, then the session purge (history outlives nothing it needs)."""
    return {"extract": extract_run, **periodic_jobs(), "sessions_purge": sessions_purge_run}


def all_jobs_run(
    job: str, *, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE, max_batches: int = MAX_BATCHES
) -> dict[str, int | str]:
    return run_in_batches(
        job, all_periodic_jobs()[job], tenant_id=tenant_id, batch_size=batch_size, max_batches=max_batches
    )
