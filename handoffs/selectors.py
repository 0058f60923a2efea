"""What may cross in a handoff (DESIGN.md "Handoff", §15), chosen by the read path's own scope filter."""

from __future__ import annotations

from django.utils import timezone

from conversations.models import Session
from governance.vocabulary import Level, MemoryType, Sensitivity
from handoffs.models import Handoff
from memories.access import Caller
from memories.read.scope import ContextCandidate, ContextScope, memory_context_candidates, read_grant_for

# The subject's confirmed preferences and approved rules, wherever the subject may read them (an active
# preference is explicit or confirmed: an inference is pending until the person says yes; an active rule
# was approved).
STANDING_TYPES = frozenset({MemoryType.USER_PREFERENCE, MemoryType.ORGANIZATION_RULE, MemoryType.PROJECT_RULE})
# The task's own short-lived memory: only at this task's or this session's level.
TASK_TYPES = frozenset({MemoryType.TASK_STATE, MemoryType.TOOL_RESULT_REF})
CROSSING_TYPES = STANDING_TYPES | TASK_TYPES
CROSSING_SENSITIVITY = frozenset({Sensitivity.LOW, Sensitivity.MEDIUM})  # high and restricted text stays


def crossing_memories(*, caller: Caller, session: Session, task_id: str) -> list[ContextCandidate]:
    """The memories of the session's subject that this caller may hand over for ``task_id``, newest first.

    The read path's grant decides visibility (subject, teams, the project named as the session's workspace,
    this session and this task, the key's allowed levels and types, a paused subject); this keeps the types,
    levels and sensitivities that may cross."""
    scope = ContextScope(
        user_id=session.user_id, project=session.workspace, session_id=str(session.pk), task_id=task_id
    )
    decision = read_grant_for(caller=caller, scope=scope)
    grant = decision.grant
    if grant is None or grant.subject_paused:
        return []
    crossing = []
    for memory in memory_context_candidates(grant=grant, now=timezone.now()):
        if memory.type not in CROSSING_TYPES or memory.sensitivity not in CROSSING_SENSITIVITY:
            continue
        if memory.type in TASK_TYPES and not (
            (memory.level == Level.TASK and memory.task_id == task_id)
            or (memory.level == Level.SESSION and memory.session_id == str(session.pk))
        ):
            continue
        crossing.append(memory)
    return crossing


def handoff_for_receiver(*, caller: Caller, handoff_id: object) -> Handoff | None:
    """The handoff if this caller is the agent it was handed to (a live session); None for anyone else,
    the agent that made it included: not-found and not-yours look the same."""
    if caller.agent is None:
        return None
    return (
        Handoff.objects.select_related("session", "from_agent", "to_agent")
        .filter(
            pk=handoff_id,
            tenant_id=caller.tenant_id,
            to_agent_id=caller.agent.pk,
            session__deleted_at__isnull=True,
        )
        .first()
    )
