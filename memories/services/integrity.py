"""Unreadable records: a ciphertext that no longer opens (altered, or its data key destroyed).

Whoever shows memories shows such a one as unreadable instead of failing, and records it here: one
``memory_integrity_failed`` event per memory, however often it is seen, with the reason — the key is
gone (``key_missing``: an erased subject's rows brought back by a restore, say) or the ciphertext does
not authenticate (``ciphertext_invalid``: bit rot or tampering).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from audit.events import Event
from audit.models import AuditEvent
from audit.services import audit_record
from memories.models import Memory
from vault import DecryptionError
from vault.datakeys import data_key_by_id
from vault.envelope import key_id_of


def _reason(memory: Memory) -> str:
    stored = memory.__dict__.get("content")
    blob = getattr(stored, "blob", None)
    try:
        return "key_missing" if blob is None or data_key_by_id(key_id_of(blob)) is None else "ciphertext_invalid"
    except DecryptionError:
        return "ciphertext_invalid"  # not even a memgov ciphertext


def unreadable_memories(memories: Iterable[Memory]) -> list[Memory]:
    return [memory for memory in memories if memory.readable_content is None]


def memory_integrity_failures_record(*, memories: Iterable[Memory], actor: str) -> int:
    """Audit each unreadable memory among these once; returns how many were recorded now."""
    broken = unreadable_memories(memories)
    if not broken:
        return 0
    recorded = 0
    with transaction.atomic():
        seen = set(
            AuditEvent.objects.filter(
                tenant_id__in={m.tenant_id for m in broken},
                event=Event.MEMORY_INTEGRITY_FAILED,
                memory_id__in=[m.pk for m in broken],
            ).values_list("memory_id", flat=True)
        )
        for memory in broken:
            if memory.pk in seen:
                continue
            seen.add(memory.pk)
            audit_record(
                tenant_id=memory.tenant_id,
                event=Event.MEMORY_INTEGRITY_FAILED,
                actor=actor,
                memory_id=memory.pk,
                memory_type=memory.type,
                scope=memory.level,
                subject_id=memory.user_id,
                sensitivity=memory.sensitivity,
                reason_code=_reason(memory),
                details={"field": "content"},
            )
            recorded += 1
    return recorded
