"""Carry out a command's plan through the ordinary services, so a command does exactly what the
matching button on the "My memories" page does, with the same audit events."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from django.db import transaction

from governance.models import AgentClient
from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType, Status
from memories.models import Memory
from memories.nlcommands.parser import Intent, parse_command
from memories.nlcommands.plan import Plan, command_plan
from memories.services.confirmations import confirmation_accept
from memories.services.records import memory_delete, memory_pause
from memories.services.subjects import session_clear, session_opt_out
from memories.services.write import WriteResult, memory_write


@dataclass(frozen=True)
class CommandResult:
    plan: Plan
    executed: bool = False
    # Destructive and not confirmed yet: nothing happened; show the plan and ask.
    needs_confirmation: bool = False
    changed: tuple[Memory, ...] = ()
    write: WriteResult | None = None


def _remember(
    plan: Plan, *, tenant_id: int, user_id: str, actor: str, agent: AgentClient | None, message_id: str
) -> CommandResult:
    if plan.confirmation is not None:
        # An agent relays the person's "remember this" for the pending memory: the message it came in
        # is the instruction the consent rule asks for (memories.services.confirmations).
        memory = confirmation_accept(
            confirmation=plan.confirmation,
            actor=actor,
            by_agent=agent is not None,
            instruction_message_id=message_id,
            instruction_field="message_id",
        )
        return CommandResult(plan, executed=True, changed=(memory,))
    command = plan.command
    candidate = Candidate(
        content=command.argument,
        scope=Scope(Level.USER, user_id=user_id),
        source_type=SourceType.EXPLICIT_USER_REQUEST,
        type=MemoryType.USER_PREFERENCE if command.mentions_preference else None,
    )
    result = memory_write(
        tenant_id=tenant_id,
        candidate=candidate,
        actor_label=actor,
        agent=agent,
        on_behalf_of=user_id,
        session_id=plan.session_id,
    )
    changed = (result.memory,) if result.memory is not None else ()
    return CommandResult(plan, executed=True, changed=changed, write=result)


def command_execute(
    plan: Plan, *, tenant_id: int, user_id: str, actor: str, agent: AgentClient | None = None, message_id: str = ""
) -> CommandResult:
    """Run a ready plan. Destructive plans must have been confirmed by the caller before this.

    Not one transaction around everything: a "remember" runs the write pipeline (the detector takes
    a while) and must not hold the database's write lock meanwhile; each service is atomic itself.
    """
    if not plan.ready or not plan.changes_anything:
        return CommandResult(plan)
    intent = plan.intent
    if intent == Intent.REMEMBER:
        return _remember(plan, tenant_id=tenant_id, user_id=user_id, actor=actor, agent=agent, message_id=message_id)
    if intent == Intent.DONT_SAVE:
        session_opt_out(tenant_id=tenant_id, user_id=user_id, session_id=plan.session_id, actor=actor)
        return CommandResult(plan, executed=True)
    if intent == Intent.CLEAR_SESSION:
        session_clear(tenant_id=tenant_id, user_id=user_id, session_id=plan.session_id, actor=actor)
        return CommandResult(plan, executed=True, changed=plan.memories)
    with transaction.atomic():  # all of them or none
        if intent == Intent.STOP_USING:
            changed = tuple(memory_pause(memory=m, actor=actor) for m in plan.memories if m.status == Status.ACTIVE)
        else:  # FORGET_RECENT_PROJECT, DELETE_ABOUT
            changed = tuple(memory_delete(memory=m, actor=actor) for m in plan.memories)
    return CommandResult(plan, executed=True, changed=changed)


def command_run(
    *,
    tenant_id: int,
    user_id: str,
    actor: str,
    text: str,
    session_id: str = "",
    confirm: bool = False,
    only_ids: Collection[str] | None = None,
    agent: AgentClient | None = None,
    message_id: str = "",
) -> CommandResult:
    """Parse, plan and — unless it is destructive and not confirmed — execute a command.

    ``only_ids`` narrows a confirmed plan to the memories the person was shown, so a memory that
    started matching between "show me" and "yes, do it" is not swept up unseen.
    """
    plan = command_plan(tenant_id=tenant_id, user_id=user_id, command=parse_command(text), session_id=session_id)
    if only_ids is not None and plan.intent != Intent.CLEAR_SESSION:
        wanted = {str(i) for i in only_ids}
        plan = replace(plan, memories=tuple(m for m in plan.memories if str(m.pk) in wanted))
        if plan.destructive and not plan.memories:
            return CommandResult(plan)
    if plan.ready and plan.destructive and not confirm:
        return CommandResult(plan, needs_confirmation=True)
    return command_execute(plan, tenant_id=tenant_id, user_id=user_id, actor=actor, agent=agent, message_id=message_id)
