"""Erasing a subject, everything at once: their memories (``memories.services.subjects.subject_erase``,
which destroys their data key first — crypto-shredding) and their sessions, events, snapshots and user
state, in one transaction. ``manage.py erase_subject`` and the person's "erase everything" page call this.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from audit.events import Event as AuditKind
from audit.services import audit_append
from conversations.models import Event, ScopedState, Session, Snapshot
from conversations.services.audit import session_audit
from memories.models import ErasureReceipt
from memories.services.subjects import subject_erase as memories_subject_erase


@dataclass(frozen=True)
class SubjectErasure:
    receipt: ErasureReceipt
    sessions_erased: int
    events_erased: int


@transaction.atomic
def subject_erase(*, tenant_id: int, user_id: str, actor: str) -> SubjectErasure:
    """Erase a subject's memories and sessions. The data key goes first, so every copy of their
    ciphertext (backups, replicas) is unreadable; then the rows. Audit events stay: they never held content."""
    receipt = memories_subject_erase(tenant_id=tenant_id, user_id=user_id, actor=actor)
    # Forks belong to the subject of the session they came from: the subject's sessions are a closed set.
    sessions = list(Session.objects.filter(tenant_id=tenant_id, user_id=user_id))
    events_total = 0
    audits = []
    for session in sessions:
        events = Event.objects.filter(session_id=session.pk)
        Snapshot.objects.filter(event__session_id=session.pk).delete()
        count, _ = events.delete()
        events_total += count
        audits.append(
            session_audit(
                session=session,
                event=AuditKind.SESSION_DELETED,
                actor=actor,
                reason_code="subject_erased",
                events_deleted=count,
                receipt_id=str(receipt.pk),
            )
        )
    Session.objects.filter(tenant_id=tenant_id, user_id=user_id).delete()
    ScopedState.objects.filter(tenant_id=tenant_id, user_id=user_id).exclude(user_id="").delete()
    if audits:
        audit_append(audits)
    return SubjectErasure(receipt, len(sessions), events_total)
