"""From a parsed command to a plan: which memories it would touch, and whether that destroys anything.

Planning only reads. The person (or the agent, with ``confirm: true``) sees the plan before anything
destructive runs; :mod:`memories.nlcommands.execute` then carries it out through the services.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from governance.vocabulary import MemoryType, Status
from memories.models import Confirmation, Memory
from memories.nlcommands.parser import DESTRUCTIVE_INTENTS, Intent, ParsedCommand
from memories.selectors import (
    LIVE_STATUSES,
    confirmation_list_pending_for_subject,
    memory_list_active_for_subject,
    memory_list_for_subject,
    memory_search_for_subject,
)

LIST_LIMIT = 50
# "Delete all memories about X" reaches everything still held, archived and expired ones included.
DELETABLE_STATUSES = (*LIVE_STATUSES, Status.ARCHIVED, Status.EXPIRED)


class Missing:
    """What a command needs before it can run (``Plan.missing``)."""

    INTENT = "intent"  # not a command we know
    SESSION = "session_id"  # "this session/task" but no session was named
    TARGET = "target"  # nothing matches: no memory about X, no pending preference, …


@dataclass(frozen=True)
class Plan:
    command: ParsedCommand
    session_id: str = ""
    memories: tuple[Memory, ...] = ()
    confirmation: Confirmation | None = None
    missing: str = ""

    @property
    def intent(self) -> Intent:
        return self.command.intent

    @property
    def ready(self) -> bool:
        return not self.missing

    @property
    def destructive(self) -> bool:
        return self.intent in DESTRUCTIVE_INTENTS

    @property
    def changes_anything(self) -> bool:
        return self.intent not in {Intent.LIST, Intent.UNKNOWN}


def _is_about_a_project(memory: Memory) -> bool:
    return bool(memory.project) or memory.type == MemoryType.PROJECT_RULE or "PROJECT" in (memory.entity_types or [])


def _recent_project(*, tenant_id: int, user_id: str, session_id: str) -> tuple[Memory, ...]:
    """The project the person mentioned last: the newest project memory (of this session, if one is
    named and has any), with every other memory of the same project."""
    live = list(memory_list_for_subject(tenant_id=tenant_id, user_id=user_id).order_by("-created_at", "-id"))
    projects = [m for m in live if _is_about_a_project(m)]
    if session_id:
        projects = [m for m in projects if m.session_id == session_id] or projects
    if not projects:
        return ()
    newest = projects[0]
    if not newest.project:
        return (newest,)
    return tuple(m for m in live if m.project == newest.project)


def _preferences_to_stop(*, tenant_id: int, user_id: str, about: str) -> tuple[Memory, ...]:
    if about:
        found = memory_search_for_subject(tenant_id=tenant_id, user_id=user_id, text=about, statuses=(Status.ACTIVE,))
        preferences = [m for m in found if m.type == MemoryType.USER_PREFERENCE]
        return tuple(preferences or found)
    # "This preference": the one the agent used last, i.e. the one that shaped the answer just given.
    newest = (
        memory_list_active_for_subject(tenant_id=tenant_id, user_id=user_id)
        .filter(type=MemoryType.USER_PREFERENCE)
        .order_by(F("last_used_at").desc(nulls_last=True), "-updated_at", "-id")
        .first()
    )
    return (newest,) if newest else ()


def _pending_to_accept(*, tenant_id: int, user_id: str, preference: bool) -> Confirmation | None:
    """ "Remember this (preference)": the newest thing an agent asked to remember, preferences first."""
    pending = confirmation_list_pending_for_subject(tenant_id=tenant_id, user_id=user_id)
    if preference:
        first = pending.filter(memory__type=MemoryType.USER_PREFERENCE).first()
        if first is not None:
            return first
    return pending.first()


def command_plan(*, tenant_id: int, user_id: str, command: ParsedCommand, session_id: str = "") -> Plan:
    """What ``command`` would do for this subject. Reads only; every lookup is scoped to the subject."""
    intent = command.intent
    base = {"command": command, "session_id": session_id}
    if intent == Intent.UNKNOWN:
        return Plan(**base, missing=Missing.INTENT)
    if intent == Intent.LIST:
        active = memory_list_active_for_subject(tenant_id=tenant_id, user_id=user_id)[:LIST_LIMIT]
        return Plan(**base, memories=tuple(active))
    if intent == Intent.REMEMBER:
        if command.argument:
            return Plan(**base)
        pending = _pending_to_accept(tenant_id=tenant_id, user_id=user_id, preference=command.mentions_preference)
        if pending is None:
            return Plan(**base, missing=Missing.TARGET)
        return Plan(**base, memories=(pending.memory,), confirmation=pending)
    if intent in {Intent.DONT_SAVE, Intent.CLEAR_SESSION} and not session_id:
        return Plan(**base, missing=Missing.SESSION)
    if intent == Intent.DONT_SAVE:
        return Plan(**base)
    if intent == Intent.CLEAR_SESSION:
        found = tuple(memory_list_for_subject(tenant_id=tenant_id, user_id=user_id).filter(session_id=session_id))
    elif intent == Intent.FORGET_RECENT_PROJECT:
        found = _recent_project(tenant_id=tenant_id, user_id=user_id, session_id=session_id)
    elif intent == Intent.DELETE_ABOUT:
        found = tuple(
            memory_search_for_subject(
                tenant_id=tenant_id, user_id=user_id, text=command.argument, statuses=DELETABLE_STATUSES
            )
        )
    else:  # Intent.STOP_USING
        found = _preferences_to_stop(tenant_id=tenant_id, user_id=user_id, about=command.argument)
    return Plan(**base, memories=found, missing="" if found else Missing.TARGET)
