"""Purge: a deleted memory loses its row, its versions and its confirmation after the grace period.

A hard delete, not a flag (§10.3, seed 000 §18.4). Deletion makes a memory vanish from every read at
once; the grace period (the tenant policy's ``purge_grace_days``, counted from the deletion — the
last change a deleted row receives) lets an operator undo a mistake from a backup. Each purge writes
``memory_purged`` whose ``receipt_id`` and counts are the purge receipt; the audit log never held
content, so it keeps its events.

On SQLite every connection has ``secure_delete`` on (freed pages are zeroed, so the ciphertext doesn't
linger in the file's free pages) and the job truncates the write-ahead log after the batch, so no
earlier page image survives there either. On PostgreSQL the touched tables are vacuumed when the
service may (dbkit/scrub.py says what that does and does not remove). Content is encrypted at rest in
every case; an erased subject's data key is already destroyed.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from dbkit.ids import new_id
from dbkit.scrub import scrub_after_delete, sqlite_secure_delete_on, sqlite_truncate_wal
from governance.models import Tenant
from governance.policy import policy_snapshot_for_tenant
from governance.vocabulary import Status
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, claim, job_actor, timed_run
from memories.models import Confirmation, Memory, MemoryVersion
from memories.services.retrieval_index import retrieval_index_drop

JOB = "purge"
ACTOR = job_actor(JOB)
logger = logging.getLogger("memgov.lifecycle")
PURGED_TABLES = (Memory, MemoryVersion, Confirmation)
__all__ = ["memory_purge_one", "purge_run", "sqlite_truncate_wal"]


def _purgeable(*, tenant_id: int, cutoff: datetime):  # -> QuerySet[Memory]
    return Memory.objects.filter(tenant_id=tenant_id, status=Status.DELETED, updated_at__lt=cutoff)


def _audit_purge(memory: Memory, *, memory_id: UUID, receipt_id: UUID, versions: int, confirmations: int) -> None:
    audit_record(
        tenant_id=memory.tenant_id,
        event=Event.MEMORY_PURGED,
        actor=ACTOR,
        memory_id=memory_id,
        memory_type=memory.type,
        scope=memory.level,
        subject_id=memory.user_id,
        sensitivity=memory.sensitivity,
        reason_code="purge_grace_elapsed",
        details={"receipt_id": str(receipt_id), "versions_purged": versions, "confirmations_purged": confirmations},
    )


def memory_purge_one(memory_id: UUID, *, tenant_id: int, cutoff: datetime) -> UUID | None:
    """Hard-delete one deleted memory past its grace period; returns the purge receipt id."""
    with transaction.atomic():
        memory = claim(_purgeable(tenant_id=tenant_id, cutoff=cutoff).filter(pk=memory_id))
        if memory is None:
            return None
        versions, _ = MemoryVersion.objects.filter(tenant_id=tenant_id, memory_id=memory_id).delete()
        confirmations, _ = Confirmation.objects.filter(tenant_id=tenant_id, memory_id=memory_id).delete()
        # Through the ORM collector, so any other row that hangs off the memory goes with it.
        retrieval_index_drop(tenant_id=tenant_id, owner=memory.user_id)
        memory.delete()  # (this clears memory.pk)
        receipt_id = new_id()
        _audit_purge(memory, memory_id=memory_id, receipt_id=receipt_id, versions=versions, confirmations=confirmations)
        return receipt_id


def purge_run(
    *, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE, now: datetime | None = None
) -> JobResult:
    """One bounded pass over all tenants (or one), each with its own policy's ``purge_grace_days``."""
    now = now or timezone.now()
    result = JobResult(JOB)
    budget = batch_size
    with timed_run(result):
        sqlite_secure_delete_on()
        tenants = Tenant.objects.order_by("pk").values_list("pk", flat=True)
        if tenant_id is not None:
            tenants = tenants.filter(pk=tenant_id)
        for tid in tenants:
            if budget <= 0:
                result.has_more = True
                break
            cutoff = now - timedelta(days=policy_snapshot_for_tenant(tenant_id=tid).purge_grace_days)
            ids = list(_purgeable(tenant_id=tid, cutoff=cutoff).order_by("id").values_list("id", flat=True)[:budget])
            budget -= len(ids)
            for memory_id in ids:
                purged = memory_purge_one(memory_id, tenant_id=tid, cutoff=cutoff) is not None
                result.add("purged" if purged else "skipped")
        result.has_more = result.has_more or budget <= 0
        if result["purged"]:
            # No page image of a purged row may survive in a write-ahead log or free space.
            scrub_after_delete(tables=PURGED_TABLES)
    return result
