"""Deleting several memories at once (the OpenMemory-style ``delete_memories`` and ``delete_all_memories``),
each audited as its own ``memory_deleted``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.http import Http404

from memories.access import Caller, memory_for_caller
from memories.models import Memory
from memories.selectors import memory_list_for_subject
from memories.services.records import memory_delete


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
