"""Fast synthetic audit events for benchmarks and memory tests (never for real data).

``audit_bench_seed`` appends events with batched raw inserts instead of one ``audit_record`` call each
(a million ORM inserts would take far longer than the export being measured). It still builds a
valid chain: the same canonical form and hash, seq numbers continuing from the chain head, which it
locks and moves forward exactly as ``audit_record`` does.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone

from audit.chain import CHAINED_FIELDS, GENESIS, event_hash
from audit.events import Event
from audit.models import AuditChainHead, AuditEvent

_KINDS = (
    Event.MEMORY_WRITE_REQUESTED,
    Event.MEMORY_WRITE_APPROVED,
    Event.MEMORY_READ,
    Event.MEMORY_INJECTED,
    Event.MEMORY_WRITE_REJECTED,
    Event.MEMORY_UPDATED,
)
_TYPES = ("user_preference", "user_profile", "task_state", "constraint", "project_rule")
_SENSITIVITIES = ("low", "low", "medium", "high")


_COLUMNS = (*CHAINED_FIELDS, "hash")


def _same(value: Any) -> Any:
    return value


def _preparers() -> dict[str, Callable[[Any], Any]]:
    """Database values for the columns that need converting (times, UUIDs, JSON) on this backend."""
    db = connections[DEFAULT_DB_ALIAS]  # the real wrapper: the ``connection`` proxy is slow per call
    fields = {name: AuditEvent._meta.get_field(name) for name in ("created_at", "memory_id", "entity_types", "details")}
    return {name: (lambda value, field=field: field.get_db_prep_save(value, db)) for name, field in fields.items()}


def _insert(batch: list[tuple[Any, ...]]) -> None:
    """One executemany per batch: the ORM's bulk_create costs ~1 ms a row in Python, too slow for 1M."""
    table = connection.ops.quote_name(AuditEvent._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(AuditEvent._meta.get_field(name).column) for name in _COLUMNS)
    placeholders = ", ".join(["%s"] * len(_COLUMNS))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # COPY is several times faster than INSERTs on PostgreSQL (psycopg 3 adapts each value).
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in batch:
                    copy.write_row(row)
        else:
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({placeholders})", batch)  # noqa: S608
    batch.clear()
    # With DEBUG on, Django keeps every query; a million inserts' worth would skew the memory figures.
    connection.queries_log.clear()


def audit_bench_seed(*, tenant_id: int, count: int, batch_size: int = 5000) -> int:
    """Append ``count`` realistic-looking events to the tenant's chain; returns the new head seq.

    Timestamps are spaced one microsecond apart and end now, so they are all in the past.
    """
    prepare = _preparers()
    with transaction.atomic():
        head, _ = AuditChainHead.objects.select_for_update().get_or_create(
            tenant_id=tenant_id, defaults={"seq": 0, "head_hash": GENESIS}
        )
        seq, prev_hash = head.seq, head.head_hash
        base = timezone.now() - timedelta(microseconds=count)
        batch: list[tuple[Any, ...]] = []
        for i in range(count):
            seq += 1
            kind = _KINDS[i % len(_KINDS)]
            fields = {
                "tenant_id": tenant_id,
                "seq": seq,
                "event": kind.value,
                "created_at": base + timedelta(microseconds=i),
                "actor": "agent:bench-agent" if i % 3 else f"user:subject-{i % 997:04d}",
                "memory_id": str(uuid.UUID(int=(tenant_id << 64) + i, version=4)),
                "memory_type": _TYPES[i % len(_TYPES)],
                "scope": "user",
                "subject_id": f"subject-{i % 997:04d}",
                "sensitivity": _SENSITIVITIES[i % len(_SENSITIVITIES)],
                "source_message_id": f"msg-{i:09d}",
                "requires_confirmation": (i % 5 == 0) if kind is Event.MEMORY_WRITE_REQUESTED else None,
                "approved_by": "",
                "agent_version": "bench-v1",
                "policy_version": 1,
                "reason_code": "restricted_data" if kind is Event.MEMORY_WRITE_REJECTED else "",
                "entity_types": ["EMAIL_ADDRESS"] if kind is Event.MEMORY_WRITE_REJECTED else [],
                "details": {"request_id": f"req-{i:09d}", "count": i % 7},
                "prev_hash": prev_hash,
            }
            fields["hash"] = prev_hash = event_hash(fields)
            batch.append(tuple(prepare.get(name, _same)(fields[name]) for name in _COLUMNS))
            if len(batch) >= batch_size:
                _insert(batch)
        if batch:
            _insert(batch)
        head.seq, head.head_hash = seq, prev_hash
        head.save(update_fields=["seq", "head_hash"])
    return seq
