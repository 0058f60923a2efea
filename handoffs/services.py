"""Hand a task over, and receive it: each audited in its own transaction, with ids and counts only."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from audit.events import Event as AuditKind
from audit.services import audit_record
from conversations.models import Session
from conversations.selectors.events import event_visible_to
from conversations.selectors.tasks import task_state_get
from conversations.services.errors import SessionInputError
from conversations.services.events import NewEvent, session_events_append
from conversations.validation import check_ident
from governance.models import AgentClient
from handoffs.models import Handoff
from handoffs.selectors import crossing_memories
from memories.access import Caller
from memories.read.scope import ContextCandidate


@dataclass
class HandoffContext:
    """What the receiving agent gets: the handoff's ids, the task state, and the memories that crossed."""

    handoff: Handoff
    task_state: dict[str, Any]
    memories: list[ContextCandidate] = field(default_factory=list)


def _receiver(*, tenant_id: int, name: str, sender: AgentClient) -> AgentClient:
    receiver = AgentClient.objects.filter(tenant_id=tenant_id, name=name, revoked_at__isnull=True).first()
    if receiver is None or not receiver.is_active:
        raise SessionInputError("to_agent", "no active agent key of this name in your tenant")
    if receiver.pk == sender.pk:
        raise SessionInputError("to_agent", "name another agent: a handoff goes from one agent to another")
    return receiver


def handoff_create(*, caller: Caller, session: Session, task_id: str, to_agent: str) -> HandoffContext:
    """Hand ``task_id`` of ``session`` to the agent named ``to_agent``: a ``handoff`` event in the session,
    the handoff row (ids only) and ``handoff_created``. 400s (SessionInputError) name the field."""
    if caller.agent is None:
        raise SessionInputError("to_agent", "only an agent hands a task over")
    task_id = check_ident("task_id", task_id, required=True)
    receiver = _receiver(tenant_id=caller.tenant_id, name=to_agent.strip(), sender=caller.agent)
    state = task_state_get(session=session, task_id=task_id)
    if state is None:
        raise SessionInputError("task_id", "this session holds no state of this task")
    memories = crossing_memories(caller=caller, session=session, task_id=task_id)
    with transaction.atomic():
        # Recorded in the history, so the session shows where the task went (ids only: no content).
        session_events_append(
            tenant_id=caller.tenant_id,
            session_id=session.pk,
            events=[
                NewEvent(kind="handoff", content=f"Task {task_id} handed over to {receiver.name}.", task_id=task_id)
            ],
            actor=caller.actor,
            agent=caller.agent,
        )
        handoff = Handoff.objects.create(
            tenant_id=caller.tenant_id,
            session=session,
            task_id=task_id,
            user_id=session.user_id,
            from_agent=caller.agent,
            to_agent=receiver,
            at_event_id=uuid.UUID(state.at_event_id) if state.at_event_id else None,
            memory_ids=[memory.id for memory in memories],
        )
        audit_record(
            tenant_id=caller.tenant_id,
            event=AuditKind.HANDOFF_CREATED,
            actor=caller.actor,
            scope="task",
            subject_id=session.user_id,
            details={
                "handoff_id": str(handoff.pk),
                "session_id": str(session.pk),
                "task_id": task_id,
                "to_agent": receiver.name,
                "memory_ids": handoff.memory_ids,
            },
        )
    return HandoffContext(handoff, state.values, memories)


def handoff_receive(*, caller: Caller, handoff: Handoff) -> HandoffContext:
    """The handoff as its receiver reads it: the task state as it was handed over, and those of the crossed
    memories that are still live and that the receiving key may read; ``handoff_received``."""
    session = handoff.session
    position = event_visible_to(session=session, event_id=handoff.at_event_id) if handoff.at_event_id else None
    state = task_state_get(session=session, task_id=handoff.task_id, at=position)
    crossed = set(handoff.memory_ids)
    # The receiver's own grant too: a key limited to some levels or types gets no more through a handoff.
    memories = [
        m for m in crossing_memories(caller=caller, session=session, task_id=handoff.task_id) if m.id in crossed
    ]
    with transaction.atomic():
        audit_record(
            tenant_id=caller.tenant_id,
            event=AuditKind.HANDOFF_RECEIVED,
            actor=caller.actor,
            scope="task",
            subject_id=handoff.user_id,
            details={
                "handoff_id": str(handoff.pk),
                "session_id": str(session.pk),
                "task_id": handoff.task_id,
                "memory_ids": [m.id for m in memories],
            },
        )
    return HandoffContext(handoff, state.values if state is not None else {}, memories)
