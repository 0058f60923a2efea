"""Settling pending memories: the subject confirms (confirm_by=user) or another admin approves (admin)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.vocabulary import Status
from memories.models import Confirmation, Memory
from memories.services.records import memory_archive, touch_subject


class ConfirmationError(ValueError):
    """The confirmation can't be settled (already settled, expired, or four-eyes refused)."""


def _lock(confirmation: Confirmation) -> Confirmation:
    locked = (
        Confirmation.objects.select_for_update(of=("self",))
        .select_related("memory", "memory__agent")
        .get(pk=confirmation.pk, tenant_id=confirmation.tenant_id)
    )
    if locked.state != Confirmation.State.PENDING:
        raise ConfirmationError(f"this confirmation was already {locked.state}")
    if locked.expires_at <= timezone.now():
        raise ConfirmationError("this confirmation has expired; ask again")
    return locked


def _audit(confirmation: Confirmation, memory: Memory, *, event: Event, actor: str, approved_by: str = "") -> None:
    audit_record(
        tenant_id=confirmation.tenant_id,
        event=event,
        actor=actor,
        memory_id=memory.pk,
        memory_type=memory.type,
        scope=memory.level,
        subject_id=memory.user_id,
        sensitivity=memory.sensitivity,
        source_message_id=memory.source_message_id,
        requires_confirmation=True,
        approved_by=approved_by,
        agent_version=memory.agent.name if memory.agent_id else "",
        policy_version=memory.policy_version,
        details={"confirmation_id": str(confirmation.pk), "confirm_by": confirmation.confirm_by},
    )


@transaction.atomic
def confirmation_accept(*, confirmation: Confirmation, actor: str) -> Memory:
    """Make the pending memory active. Who may call this is checked by the caller (see access rules)."""
    confirmation = _lock(confirmation)
    if confirmation.confirm_by == "admin" and actor == confirmation.requested_by:
        raise ConfirmationError("four eyes: the person who proposed a rule can't approve it")
    memory = confirmation.memory
    now = timezone.now()
    confirmation.state = Confirmation.State.ACCEPTED
    confirmation.decided_by, confirmation.decided_at = actor, now
    confirmation.save(update_fields=["state", "decided_by", "decided_at"])
    memory.status = Status.ACTIVE
    memory.reviewed_by = actor
    memory.save(update_fields=["status", "reviewed_by", "updated_at"])
    if memory.conflict_with:
        old = Memory.objects.filter(pk=memory.conflict_with, tenant_id=memory.tenant_id, status=Status.ACTIVE).first()
        if old is not None:
            memory_archive(memory=old, actor=actor)
    touch_subject(tenant_id=memory.tenant_id, user_id=memory.user_id)
    _audit(confirmation, memory, event=Event.CONFIRMATION_ACCEPTED, actor=actor, approved_by=actor)
    _audit(confirmation, memory, event=Event.MEMORY_WRITE_APPROVED, actor=actor, approved_by=actor)
    return memory


@transaction.atomic
def confirmation_decline(*, confirmation: Confirmation, actor: str) -> None:
    """Drop the pending memory: it is deleted at once and purged with the other deleted memories."""
    confirmation = _lock(confirmation)
    memory = confirmation.memory
    now = timezone.now()
    confirmation.state = Confirmation.State.DECLINED
    confirmation.decided_by, confirmation.decided_at = actor, now
    confirmation.save(update_fields=["state", "decided_by", "decided_at"])
    memory.status = Status.DELETED
    memory.reviewed_by = actor
    memory.save(update_fields=["status", "reviewed_by", "updated_at"])
    touch_subject(tenant_id=memory.tenant_id, user_id=memory.user_id)
    _audit(confirmation, memory, event=Event.CONFIRMATION_DECLINED, actor=actor)
    _audit(confirmation, memory, event=Event.MEMORY_WRITE_REJECTED, actor=actor)
