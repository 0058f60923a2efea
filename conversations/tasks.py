"""Celery tasks for phase 1 extraction and the session purge: thin — run the job, retry on transient
database errors (as the memory lifecycle tasks do, ``memories.tasks``)."""

from __future__ import annotations

from celery import shared_task

from conversations.lifecycle import all_jobs_run
from memories.lifecycle.base import DEFAULT_BATCH_SIZE
from memories.tasks import RETRY


@shared_task(name="memgov.lifecycle.sessions_purge", **RETRY)
def lifecycle_sessions_purge(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return all_jobs_run("sessions_purge", tenant_id=tenant_id, batch_size=batch_size)


@shared_task(name="memgov.lifecycle.extract", **RETRY)
def lifecycle_extract(tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> dict:
    return all_jobs_run("extract", tenant_id=tenant_id, batch_size=batch_size)
