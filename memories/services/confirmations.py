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


class ConsentRequired(ConfirmationError):
    """An agent tried to settle a person's confirmation without naming the person's instruction.

    ``field`` names the request field that must carry the id of the message in which the person said yes.
    """

    def __init__(self, message: str, *, field: str = "instruction_message_id") -> None:
        super().__init__(message)
        self.field = field


def _consent_check(confirmation: Confirmation, *, by_agent: bool, instruction_message_id: str, field: str) -> str:
    """Who settled a ``confirm_by: user`` confirmation, as the audit log records it.

    The person in their own session settles it outright. An agent only relays the person's word: it must
    name the message in which they said yes, and that can't be the message the inference was drawn
    from — otherwise the agent that proposed an inference could approve it itself, and consent would be
    a formality.
    """
    if not by_agent:
        return "person"
    if not instruction_message_id:
        raise ConsentRequired(
            "an agent may accept this only on the person's explicit instruction: name the message in which "
            "they said yes",
            field=field,
        )
    if instruction_message_id == confirmation.memory.source_message_id:
        raise ConsentRequired(
            "the message the inference was drawn from is not an instruction to confirm it", field=field
        )
    return "agent_on_instruction"


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


def _audit(
    confirmation: Confirmation,
    memory: Memory,
    *,
    event: Event,
    actor: str,
    approved_by: str = "",
    consent: dict[str, str] | None = None,
) -> None:
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
        details={"confirmation_id": str(confirmation.pk), "confirm_by": confirmation.confirm_by, **(consent or {})},
    )


@transaction.atomic
def confirmation_accept(
    *,
    confirmation: Confirmation,
    actor: str,
    by_agent: bool,
    instruction_message_id: str = "",
    instruction_field: str = "instruction_message_id",
) -> Memory:
    """Make the pending memory active. Who may call this is checked by the caller (see access rules);
    an agent settling a person's confirmation must name the person's instruction (ConsentRequired)."""
    confirmation = _lock(confirmation)
    if confirmation.confirm_by == "admin" and actor == confirmation.requested_by:
        raise ConfirmationError("four eyes: the person who proposed a rule can't approve it")
    consent: dict[str, str] = {}
    if confirmation.confirm_by == "user":
        settled_by = _consent_check(
            confirmation, by_agent=by_agent, instruction_message_id=instruction_message_id, field=instruction_field
        )
        consent = {"settled_by": settled_by}
        if instruction_message_id:
            consent["instruction_message_id"] = instruction_message_id
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
    _audit(confirmation, memory, event=Event.CONFIRMATION_ACCEPTED, actor=actor, approved_by=actor, consent=consent)
    _audit(confirmation, memory, event=Event.MEMORY_WRITE_APPROVED, actor=actor, approved_by=actor, consent=consent)
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
