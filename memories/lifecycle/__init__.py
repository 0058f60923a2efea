"""Lifecycle jobs (§10.3, seed 000's retention GC): one module per job, one function per run.

Every job is a service: idempotent, bounded (``batch_size``), optionally limited to one tenant,
safe to run twice at once on two workers, and every change it makes goes through the record
services, which audit it in the same transaction. Celery tasks (``memories.tasks``) and
``manage.py run_lifecycle`` only call these.

Archival on task completion is not periodic: it runs when an agent calls
``POST /api/v1/tasks/{task_id}/complete`` (``memories.lifecycle.archive.task_complete``).
"""

from __future__ import annotations

from collections.abc import Callable

from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult

JobRun = Callable[..., JobResult]
# One call runs at most this many bounded batches; what is left waits for the next run.
MAX_BATCHES = 20


def periodic_jobs() -> dict[str, JobRun]:
    """The jobs the beat schedule runs, by name, in the order ``run_lifecycle`` runs them all.

    Invalidate before unused/expire (a lost grant is the most urgent), purge after them (it only ever
    removes what an earlier step or a person deleted long ago), re-embedding and re-indexing last (they only
    make reads and writes cheaper or better ranked).
    """
    from memories.lifecycle.consolidate import consolidate_run
    from memories.lifecycle.expire import expire_run
    from memories.lifecycle.invalidate import invalidate_run
    from memories.lifecycle.purge import purge_run
    from memories.lifecycle.reembed import reembed_run
    from memories.lifecycle.reindex import reindex_run
    from memories.lifecycle.retrieval import retrieval_run
    from memories.lifecycle.unused import unused_run

    return {
        "invalidate": invalidate_run,
        "expire": expire_run,
        "unused": unused_run,
        "consolidate": consolidate_run,
        "purge": purge_run,
        "reembed": reembed_run,
        "reindex": reindex_run,
        "retrieval": retrieval_run,
    }


def lifecycle_job_run(
    job: str, *, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE, max_batches: int = MAX_BATCHES
) -> dict[str, int | str]:
    """Run one periodic job batch after batch until a batch comes back short; the summed counts."""
    return run_in_batches(
        job, periodic_jobs()[job], tenant_id=tenant_id, batch_size=batch_size, max_batches=max_batches
    )


def run_in_batches(
    job: str, run: JobRun, *, tenant_id: int | None, batch_size: int, max_batches: int
) -> dict[str, int | str]:
    """``run`` batch after batch until a batch comes back short (or ``max_batches``); the summed counts.
    Apps above this one (sessions) run their jobs through it too."""
    totals: dict[str, int | str] = {"job": job, "batches": 0}
    for _ in range(max_batches):
        result = run(tenant_id=tenant_id, batch_size=batch_size)
        totals["batches"] = int(totals["batches"]) + 1
        for outcome, n in sorted(result.counts.items()):
            totals[outcome] = int(totals.get(outcome, 0)) + n
        if not result.has_more:
            break
    return totals


__all__ = ["MAX_BATCHES", "JobResult", "JobRun", "lifecycle_job_run", "periodic_jobs", "run_in_batches"]
