"""Erasing a subject, everything at once: their memories (``memories.services.subjects.subject_erase``,
which tombstones them and destroys their data key first — crypto-shredding) and their sessions, events,
snapshots and user state, in one transaction. ``manage.py erase_subject``, the person's "erase everything"
page and ``manage.py apply_erasures`` (after a restore, with the tombstone: ``reapply``) call this.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from audit.events import Event as AuditKind
from audit.services import audit_append
from conversations.models import Event, ScopedState, Session, Snapshot
from conversations.services.audit import session_audit
from dbkit.scrub import scrub_after_delete
from memories.models import ErasureReceipt
from memories.services.subjects import subject_erase as memories_subject_erase
from vault.erasure import Tombstone

ERASED_TABLES = (Event, Snapshot, Session, ScopedState)


@dataclass(frozen=True)
class SubjectErasure:
    receipt: ErasureReceipt
    sessions_erased: int
    events_erased: int


@dataclass(frozen=True)
class ErasureReapplied:
    receipt: ErasureReceipt | None  # None: only sessions were left (their key and memories already gone)
    sessions_erased: int
    events_erased: int


@transaction.atomic
def subject_erase(*, tenant_id: int, user_id: str, actor: str) -> SubjectErasure:
    """Erase a subject's memories and sessions. The data key goes first, so every copy of their
    ciphertext (backups, replicas) is unreadable; then the rows. Audit events stay: they never held content."""
    erased = _erase(tenant_id=tenant_id, user_id=user_id, actor=actor, reapply=None)
    if erased is None or erased.receipt is None:
        raise RuntimeError("a first erasure always writes a receipt")
    return SubjectErasure(erased.receipt, erased.sessions_erased, erased.events_erased)


@transaction.atomic
def subject_erasure_reapply(*, tombstone: Tombstone, actor: str) -> ErasureReapplied | None:
    """After a restore: erase again what existed at the tombstone's erasure (a subject id used again
    later keeps its new memories and sessions). None when nothing was left to erase."""
    return _erase(tenant_id=tombstone.tenant_id, user_id=tombstone.owner, actor=actor, reapply=tombstone)


def _erase(*, tenant_id: int, user_id: str, actor: str, reapply: Tombstone | None) -> ErasureReapplied | None:
    receipt = memories_subject_erase(tenant_id=tenant_id, user_id=user_id, actor=actor, reapply=reapply)
    # Forks belong to the subject of the session they came from: the subject's sessions are a closed set.
    sessions = Session.objects.filter(tenant_id=tenant_id, user_id=user_id)
    states = ScopedState.objects.filter(tenant_id=tenant_id, user_id=user_id).exclude(user_id="")
    if reapply is not None:
        sessions = sessions.filter(created_at__lte=reapply.erased_at)
        states = states.filter(updated_at__lte=reapply.erased_at)
    erased = list(sessions)
    if receipt is None and not erased and not states.exists():
        return None
    events_total = 0
    audits = []
    for session in erased:
        Snapshot.objects.filter(event__session_id=session.pk).delete()
        count, _ = Event.objects.filter(session_id=session.pk).delete()
        events_total += count
        audits.append(
            session_audit(
                session=session,
                event=AuditKind.SESSION_DELETED,
                actor=actor,
                reason_code="erasure_reapplied" if reapply is not None else "subject_erased",
                events_deleted=count,
                **({"receipt_id": str(receipt.pk)} if receipt is not None else {}),
            )
        )
    Session.objects.filter(pk__in=[session.pk for session in erased]).delete()
    states.delete()
    if audits:
        audit_append(audits)
    transaction.on_commit(lambda: scrub_after_delete(tables=ERASED_TABLES))
    return ErasureReapplied(receipt, len(erased), events_total)
