"""Celery tasks for the lifecycle jobs: thin — call the job, retry on transient database errors.

A task runs its job in bounded batches until a batch comes back short (at most
``memories.lifecycle.MAX_BATCHES`` per run; what is left waits for the next beat). Retries back off
exponentially (with jitter) on ``OperationalError`` / ``InterfaceError`` — a locked SQLite file, a
PostgreSQL failover, a serialization failure. Anything else is a bug: it fails loudly, and the job's
runs counter shows it.
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from memories.lifecycle import lifecycle_job_run
from memories.lifecycle.base import DEFAULT_BATCH_SIZE

TRANSIENT_ERRORS = (OperationalError, InterfaceError)
RETRY = {
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 8,
    "ignore_result": True,
}


@shared_task(name="memgov.lifecycle.expire", **RETRY)
def lifecycle_expire(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return lifecycle_job_run("expire", tenant_id=tenant_id, batch_size=batch_size)


@shared_task(name="memgov.lifecycle.invalidate", **RETRY)
def lifecycle_invalidate(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return lifecycle_job_run("invalidate", tenant_id=tenant_id, batch_size=batch_size)


@shared_task(name="memgov.lifecycle.unused", **RETRY)
def lifecycle_unused(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return lifecycle_job_run("unused", tenant_id=tenant_id, batch_size=batch_size)


@shared_task(name="memgov.lifecycle.purge", **RETRY)
def lifecycle_purge(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return lifecycle_job_run("purge", tenant_id=tenant_id, batch_size=batch_size)


@shared_task(name="memgov.lifecycle.consolidate", **RETRY)
def lifecycle_consolidate(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return lifecycle_job_run("consolidate", tenant_id=tenant_id, batch_size=batch_size)


@shared_task(name="memgov.lifecycle.reembed", **RETRY)
def lifecycle_reembed(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return lifecycle_job_run("reembed", tenant_id=tenant_id, batch_size=batch_size)


@shared_task(name="memgov.lifecycle.reindex", **RETRY)
def lifecycle_reindex(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return lifecycle_job_run("reindex", tenant_id=tenant_id, batch_size=batch_size)


@shared_task(name="memgov.lifecycle.retrieval", **RETRY)
def lifecycle_retrieval(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return lifecycle_job_run("retrieval", tenant_id=tenant_id, batch_size=batch_size)
