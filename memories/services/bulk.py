"""Changing several memories at once: the OpenMemory-style ``delete_memories`` and ``delete_all_memories``,
and a person's "delete / pause / resume the selected" on My memories. Each memory goes through the same
service as a one-memory change, so each is audited as its own event."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.db import transaction
from django.http import Http404

from governance.vocabulary import Status
from memories.access import Caller, memory_for_caller
from memories.models import Memory
from memories.selectors import memory_list_for_subject
from memories.services.records import MUTABLE_STATUSES, MemoryStateError, memory_delete, memory_pause, memory_resume


@dataclass(frozen=True)
class BulkDeleted:
    deleted: tuple[Memory, ...]
    missing: tuple[str, ...]


@transaction.atomic
def memory_delete_all_for_subject(*, tenant_id: int, user_id: str, actor: str) -> list[Memory]:
    """Every live memory of the subject (active, paused, pending) is deleted, each audited as one
    ``memory_deleted``; shared rules, which have no subject, are never touched."""
    memories = list(memory_list_for_subject(tenant_id=tenant_id, user_id=user_id))
    return [memory_delete(memory=memory, actor=actor) for memory in memories]


@transaction.atomic
def memory_delete_listed(*, caller: Caller, memory_ids: Iterable[object], user_id: str = "") -> BulkDeleted:
    """The listed memories this caller may change (and, with ``user_id``, of that subject only), deleted
    together; the others are named as missing (missing and not-yours alike), and nothing else changes."""
    deleted: list[Memory] = []
    missing: list[str] = []
    for memory_id in dict.fromkeys(str(i) for i in memory_ids):
        try:
            memory = memory_for_caller(caller, memory_id, change=True)
        except Http404:
            missing.append(memory_id)
            continue
        if user_id and memory.user_id != user_id:
            missing.append(memory_id)
            continue
        deleted.append(memory_delete(memory=memory, actor=caller.actor))
    return BulkDeleted(deleted=tuple(deleted), missing=tuple(missing))


class BulkAction(StrEnum):
    DELETE = "delete"
    PAUSE = "pause"
    RESUME = "resume"


# The statuses each action changes; a selected memory in another is left as it is (pausing a paused one).
BULK_CHANGES_FROM: dict[BulkAction, frozenset[str]] = {
    BulkAction.DELETE: MUTABLE_STATUSES | {Status.ARCHIVED, Status.EXPIRED},
    BulkAction.PAUSE: frozenset({Status.ACTIVE}),
    BulkAction.RESUME: frozenset({Status.PAUSED}),
}
_BULK_SERVICES = {BulkAction.DELETE: memory_delete, BulkAction.PAUSE: memory_pause, BulkAction.RESUME: memory_resume}


@dataclass(frozen=True)
class BulkPlan:
    action: BulkAction
    changes: tuple[Memory, ...]  # what "yes" changes
    unchanged: tuple[Memory, ...]  # selected, but already so or not in a status the action changes


def memory_bulk_plan(*, memories: Sequence[Memory], action: BulkAction) -> BulkPlan:
    """Which of the selected memories ``action`` would change: what the plan page names before "yes"."""
    allowed = BULK_CHANGES_FROM[action]
    return BulkPlan(
        action=action,
        changes=tuple(m for m in memories if m.status in allowed),
        unchanged=tuple(m for m in memories if m.status not in allowed),
    )


@transaction.atomic
def memory_bulk_apply(*, memories: Sequence[Memory], action: BulkAction, actor: str) -> list[Memory]:
    """``action`` on each memory through its one-memory service (``memory_delete``, ``memory_pause``,
    ``memory_resume``), each writing its own audit event — all in one transaction.

    One transaction, not one per memory: the person said yes to a plan naming these memories, so either
    all of them change or, if one can't (its status changed since the plan: another tab, an expiry),
    none does and :class:`MemoryStateError` says so. The caller resolves ``memories`` for the person.
    """
    service = _BULK_SERVICES[action]
    allowed = BULK_CHANGES_FROM[action]
    changed = []
    for memory in memories:
        if memory.status not in allowed:
            raise MemoryStateError(f"a {memory.status} memory can't be changed by {action}")
        changed.append(service(memory=memory, actor=actor))
    return changed
