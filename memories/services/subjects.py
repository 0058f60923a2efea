"""What a person controls about all their memories: pause, per-session opt-out, erasure."""

from __future__ import annotations

from django.db import transaction

from audit.events import Event
from audit.services import audit_record
from dbkit.scrub import scrub_after_delete, sqlite_secure_delete_on
from memories.models import (
    AgentAccess,
    Confirmation,
    ErasureReceipt,
    Memory,
    MemoryVersion,
    RetrievalIndex,
    SessionOptOut,
    Subject,
)
from memories.selectors import memory_list_for_subject
from memories.services.records import memory_delete
from memories.services.retrieval_index import retrieval_index_drop
from vault.erasure import Tombstone, subject_key_shred

# The content tables an erasure deletes from: scrubbed (WAL truncated / vacuumed) once it commits.
ERASED_TABLES = (Memory, MemoryVersion, Confirmation, SessionOptOut, Subject, RetrievalIndex)


def _subject(*, tenant_id: int, user_id: str) -> Subject:
    subject, _ = Subject.objects.get_or_create(tenant_id=tenant_id, user_id=user_id)
    return subject


@transaction.atomic
def subject_set_paused(*, tenant_id: int, user_id: str, paused: bool, actor: str) -> Subject:
    """Pause all memory: nothing new is saved and nothing is injected until resumed."""
    subject = Subject.objects.select_for_update().filter(pk=_subject(tenant_id=tenant_id, user_id=user_id).pk).get()
    if subject.memory_paused != paused:
        subject.memory_paused = paused
        subject.save(update_fields=["memory_paused"])
        audit_record(
            tenant_id=tenant_id,
            event=Event.SUBJECT_PAUSED if paused else Event.SUBJECT_RESUMED,
            actor=actor,
            subject_id=user_id,
        )
    return subject


@transaction.atomic
def session_opt_out(*, tenant_id: int, user_id: str, session_id: str, actor: str) -> None:
    """ "Don't save this session": later writes for it are rejected with session_opt_out."""
    _, created = SessionOptOut.objects.get_or_create(tenant_id=tenant_id, user_id=user_id, session_id=session_id)
    if created:
        audit_record(
            tenant_id=tenant_id,
            event=Event.SESSION_OPTED_OUT,
            actor=actor,
            subject_id=user_id,
            details={"session_id": session_id},
        )


@transaction.atomic
def session_opt_out_withdraw(*, tenant_id: int, user_id: str, session_id: str, actor: str) -> bool:
    """The person takes back "don't save this session": later writes for it are decided as usual again.
    True when there was an opt-out to withdraw. Only the person's own pages call this: an agent can't
    undo what the person asked for."""
    deleted, _ = SessionOptOut.objects.filter(tenant_id=tenant_id, user_id=user_id, session_id=session_id).delete()
    if deleted:
        audit_record(
            tenant_id=tenant_id,
            event=Event.SESSION_OPT_OUT_WITHDRAWN,
            actor=actor,
            subject_id=user_id,
            details={"session_id": session_id},
        )
    return bool(deleted)


@transaction.atomic
def session_clear(*, tenant_id: int, user_id: str, session_id: str, actor: str) -> int:
    """Delete every live memory of one session of this subject (active, paused or pending: what the person's
    page lists and names before they say yes); returns how many. Archived and expired ones stay in history."""
    memories = memory_list_for_subject(tenant_id=tenant_id, user_id=user_id).filter(session_id=session_id)
    count = 0
    for memory in memories:
        memory_delete(memory=memory, actor=actor)
        count += 1
    audit_record(
        tenant_id=tenant_id,
        event=Event.SESSION_CLEARED,
        actor=actor,
        subject_id=user_id,
        details={"session_id": session_id, "count": count},
    )
    return count


@transaction.atomic
def subject_erase(
    *, tenant_id: int, user_id: str, actor: str, reapply: Tombstone | None = None
) -> ErasureReceipt | None:
    """Erase a subject: tombstone them and destroy their data key (crypto-shredding), then hard-delete
    their rows; once committed, no copy is left in a WAL or free page (dbkit/scrub.py).

    The key lives in the key store's own database, so a backup of the content holds no usable copy; a
    restore of an older key store is undone by ``apply_erasures``, which calls this again with each
    tombstone (``reapply``): then only what existed at that erasure is erased — a subject id used again
    later keeps its new memories — and None is returned when nothing was left to erase. Audit events
    stay: they never held content.
    """
    sqlite_secure_delete_on()
    memories = Memory.objects.filter(tenant_id=tenant_id, user_id=user_id)
    if reapply is not None:
        memories = memories.filter(created_at__lte=reapply.erased_at)
    memory_ids = list(memories.values_list("id", flat=True))
    versions = MemoryVersion.objects.filter(tenant_id=tenant_id, memory_id__in=memory_ids)
    version_count = versions.count()
    key_destroyed = subject_key_shred(tenant_id=tenant_id, owner=user_id, reapplying=reapply)
    subjects = Subject.objects.filter(tenant_id=tenant_id, user_id=user_id)
    opt_outs = SessionOptOut.objects.filter(tenant_id=tenant_id, user_id=user_id)
    switches = AgentAccess.objects.filter(tenant_id=tenant_id, user_id=user_id)
    if reapply is not None:
        subjects = subjects.filter(created_at__lte=reapply.erased_at)
        opt_outs = opt_outs.filter(created_at__lte=reapply.erased_at)
        switches = switches.filter(changed_at__lte=reapply.erased_at)
        if not (memory_ids or key_destroyed or subjects.exists() or opt_outs.exists()):
            return None
    Confirmation.objects.filter(tenant_id=tenant_id, memory_id__in=memory_ids).delete()
    versions.delete()
    memories.delete()
    retrieval_index_drop(tenant_id=tenant_id, owner=user_id)
    opt_outs.delete()
    switches.delete()
    subjects.delete()
    receipt = ErasureReceipt.objects.create(
        tenant_id=tenant_id,
        user_id=user_id,
        erased_by=actor,
        memories_erased=len(memory_ids),
        versions_erased=version_count,
        key_destroyed=bool(key_destroyed),
    )
    transaction.on_commit(lambda: scrub_after_delete(tables=ERASED_TABLES))
    audit_record(
        tenant_id=tenant_id,
        event=Event.SUBJECT_ERASED,
        actor=actor,
        subject_id=user_id,
        reason_code="erasure_reapplied" if reapply is not None else "",
        details={
            "receipt_id": str(receipt.id),
            "memories": len(memory_ids),
            "versions": version_count,
            "key_destroyed": bool(key_destroyed),
        },
    )
    return receipt
