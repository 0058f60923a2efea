"""Usage accounting of the read path: what was read and injected, recorded with the audit in one transaction.

The counters are bumped with one UPDATE that increments in the database (no read-modify-write race
between concurrent reads, no per-row save). ``updated_at`` is left alone: being used is not a change,
and recency ranking must not reward a memory for having been read. Audit details carry ids and counts,
never content.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction

from audit.events import Event
from audit.services import audit_append, audit_fields, audit_record
from governance.models import AgentClient
from memories.models import Memory
from memories.read.conflicts import Conflict
from memories.services.citations import context_read_record


@lru_cache(maxsize=128)
def _usage_statement(vendor: str, count: int) -> str:
    """``last_used_at = %s, use_count = use_count + 1`` for ``count`` ids (only quoted names are interpolated)."""
    quote = connection.ops.quote_name
    table = quote(Memory._meta.db_table)
    last_used, uses, pk = (quote(Memory._meta.get_field(name).column) for name in ("last_used_at", "use_count", "id"))
    marks = ", ".join(["%s"] * count)
    return f"UPDATE {table} SET {last_used} = %s, {uses} = {uses} + 1 WHERE {pk} IN ({marks})"  # noqa: S608


def _usage_bump(memory_ids: Sequence[str], *, now: datetime) -> None:
    """Count one use of each memory, now: one parameterized UPDATE.

    By primary key alone: the ids come from this tenant's scoped read, and with a tenant_id term
    SQLite's planner (no statistics) walks the tenant's whole index instead of k rows. Written out
    because the ORM's ``update()`` compiled this statement afresh on every read, at several times its cost.
    """
    db = connections[DEFAULT_DB_ALIAS]  # once: each access through the ``connection`` proxy costs microseconds
    pk = Memory._meta.pk
    ids = [pk.get_db_prep_value(memory_id, db) for memory_id in memory_ids]
    with db.cursor() as cursor:
        cursor.execute(_usage_statement(db.vendor, len(ids)), [db.ops.adapt_datetimefield_value(now), *ids])


@transaction.atomic
def memory_context_usage_record(
    *,
    tenant_id: int,
    actor: str,
    subject_id: str,
    agent_version: str,
    read_ids: Sequence[str],
    injected_ids: Sequence[str],
    token_count: int,
    token_budget: int,
    candidates: int,
    conflicts: Sequence[Conflict] = (),
    now: datetime,
    reason_code: str = "",
    preview: bool = False,
    agent: AgentClient | None = None,
) -> uuid.UUID | None:
    """Record one context read: ``memory_read`` always; for an injection also ``memory_injected``, the
    injected memories' ``last_used_at``/``use_count``, and ``memory_conflict_detected`` per conflict.

    A preview (the person looking at what an agent would see) is a read but no injection: it leaves the
    counters alone. The events go to the chain in one append (one lock of the chain head). An injection
    is stored as a ``ContextRead`` whose id, returned, names each item's citation (``services.citations``).
    """
    read_id = None
    common = {"tenant_id": tenant_id, "actor": actor, "subject_id": subject_id, "agent_version": agent_version}
    events = [
        audit_fields(
            event=Event.MEMORY_READ,
            reason_code=reason_code or ("preview" if preview else ""),
            details={"memory_ids": list(read_ids), "count": len(read_ids), "candidates": candidates},
            **common,
        )
    ]
    if not preview:
        if injected_ids:
            _usage_bump(injected_ids, now=now)
            read_id = context_read_record(
                tenant_id=tenant_id, user_id=subject_id, agent=agent, memory_ids=[str(i) for i in injected_ids]
            )
        events.append(
            audit_fields(
                event=Event.MEMORY_INJECTED,
                reason_code=reason_code,
                details={
                    "memory_ids": list(injected_ids),
                    "count": len(injected_ids),
                    "token_count": token_count,
                    "token_budget": token_budget,
                },
                **common,
            )
        )
        events += [
            audit_fields(
                event=Event.MEMORY_CONFLICT_DETECTED,
                memory_id=conflict.memory_id,
                memory_type=conflict.memory_type,
                reason_code="instruction_conflict",
                details={
                    "dimension": conflict.dimension,
                    "memory_stance": conflict.memory_stance,
                    "instruction_stance": conflict.instruction_stance,
                    "resolution": "follow_current_instruction",
                },
                **common,
            )
            for conflict in conflicts
        ]
    audit_append(events)
    return read_id


@transaction.atomic
def memory_cross_scope_read_record(
    *, tenant_id: int, actor: str, subject_id: str, agent_version: str, reason_code: str
) -> None:
    """A read naming a scope its caller may not read: nothing was read; alerting counts these events."""
    audit_record(
        tenant_id=tenant_id,
        event=Event.CROSS_SCOPE_READ,
        actor=actor,
        subject_id=subject_id,
        agent_version=agent_version,
        reason_code=reason_code,
    )
