"""The one audit writer. Call it inside the transaction of the change it records."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any
from uuid import UUID

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from audit.chain import GENESIS, event_hash
from audit.events import Event
from audit.models import AuditChainHead, AuditEvent
from dbkit.rows import insert_values

_DETAIL_KEY = re.compile(r"^[a-z][a-z0-9_]{0,47}$")
# Ids, codes, counts: short tokens with no spaces and ASCII only, so free text (memory content,
# names people typed) can't slip into the log through ``details``.
_DETAIL_TOKEN = re.compile(r"^[A-Za-z0-9_.:@/+=#-]{0,128}$", re.ASCII)


class AuditDetailError(ValueError):
    """A detail value looked like free text; the audit log only carries ids, codes and counts."""


def _check_detail(key: str, value: Any) -> Any:
    if isinstance(value, bool | int) or value is None:
        return value
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, str):
        if not _DETAIL_TOKEN.match(value):
            raise AuditDetailError(f"audit detail {key!r} must be an id or code, not free text")
        return value
    if isinstance(value, list | tuple):
        return [_check_detail(key, item) for item in value]
    raise AuditDetailError(f"audit detail {key!r} has unsupported type {type(value).__name__}")


def _clean_details(details: Mapping[str, Any] | None) -> dict[str, Any]:
    clean: dict[str, Any] = {}
    for key, value in (details or {}).items():
        if not _DETAIL_KEY.match(key):
            raise AuditDetailError(f"audit detail key {key!r} is not snake_case")
        clean[key] = _check_detail(key, value)
    return clean


@lru_cache(maxsize=8)
def _head_statements(vendor: str, for_update: bool) -> tuple[str, str]:
    """The chain head's SELECT (locking where the database can) and UPDATE, written once per database."""
    table = connections[DEFAULT_DB_ALIAS].ops.quote_name(AuditChainHead._meta.db_table)
    select = f"SELECT seq, head_hash FROM {table} WHERE tenant_id = %s" + (" FOR UPDATE" if for_update else "")  # noqa: S608
    update = f"UPDATE {table} SET seq = %s, head_hash = %s WHERE tenant_id = %s"  # noqa: S608
    return select, update


def _lock_head(db: BaseDatabaseWrapper, tenant_id: int) -> tuple[int, str]:
    """The chain head's (seq, hash), locked until the transaction ends (SQLite: BEGIN IMMEDIATE already holds
    the database's write lock). Raw SQL: this runs on every write and read, and the ORM's query building
    cost more than the query."""
    select, _ = _head_statements(db.vendor, db.features.has_select_for_update)
    with db.cursor() as cursor:
        cursor.execute(select, [tenant_id])
        row = cursor.fetchone()
        if row is not None:
            return int(row[0]), str(row[1])
    try:
        with transaction.atomic():
            AuditChainHead.objects.create(tenant_id=tenant_id, seq=0, head_hash=GENESIS)
    except IntegrityError:
        pass  # a concurrent first append created it
    with db.cursor() as cursor:
        cursor.execute(select, [tenant_id])
        seq, head_hash = cursor.fetchone()
    return int(seq), str(head_hash)


def _move_head(db: BaseDatabaseWrapper, tenant_id: int, seq: int, head_hash: str) -> None:
    _, update = _head_statements(db.vendor, db.features.has_select_for_update)
    with db.cursor() as cursor:
        cursor.execute(update, [seq, head_hash, tenant_id])


def audit_fields(
    *,
    tenant_id: int,
    event: Event,
    actor: str,
    memory_id: UUID | str | None = None,
    memory_type: str = "",
    scope: str = "",
    subject_id: str = "",
    sensitivity: str = "",
    source_message_id: str = "",
    requires_confirmation: bool | None = None,
    approved_by: str = "",
    agent_version: str = "",
    policy_version: int | None = None,
    reason_code: str = "",
    entity_types: Iterable[str] = (),
    details: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One event's fields, checked (no free text in details), ready for :func:`audit_append`."""
    return {
        "tenant_id": tenant_id,
        "event": Event(event).value,
        "actor": actor,
        "memory_id": str(memory_id) if memory_id else None,
        "memory_type": memory_type,
        "scope": scope,
        "subject_id": subject_id,
        "sensitivity": sensitivity,
        "source_message_id": source_message_id,
        "requires_confirmation": requires_confirmation,
        "approved_by": approved_by,
        "agent_version": agent_version,
        "policy_version": policy_version,
        "reason_code": reason_code,
        "entity_types": sorted(set(entity_types)),
        "details": _clean_details(details),
    }


def audit_append(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Append events (built by :func:`audit_fields`) of one tenant to its chain, in order; returns the
    stored rows' values (``id``, ``seq``, ``hash``… by attribute name).

    One lock of the chain head and one INSERT, however many events: a write that records several
    events pays for the chain once. Rows are inserted from their values, without model instances
    (a write's three instances cost more than the INSERT).
    """
    if not events:
        return []
    tenant_ids = {fields["tenant_id"] for fields in events}
    if len(tenant_ids) != 1:
        raise ValueError("audit_append takes the events of one tenant")
    tenant_id = tenant_ids.pop()
    db = connections[DEFAULT_DB_ALIAS]  # once: each access through the ``connection`` proxy costs microseconds
    now = timezone.now()
    rows = []
    # No savepoint: the caller's transaction (or this one) is the unit, and a failure here fails it.
    with transaction.atomic(savepoint=False):
        seq, prev = _lock_head(db, tenant_id)
        for fields in events:
            seq += 1
            chained = {**fields, "created_at": now, "seq": seq, "prev_hash": prev}
            chained["hash"] = prev = event_hash(chained)
            rows.append(chained)
        for row, pk in zip(rows, insert_values(AuditEvent, rows), strict=True):
            row["id"] = pk
        _move_head(db, tenant_id, seq, prev)
    return rows


def audit_record(**fields: Any) -> AuditEvent:
    """Append one event to the tenant's chain (see :func:`audit_fields`). Never pass memory content."""
    row = audit_append([audit_fields(**fields)])[0]
    event = AuditEvent(**row)
    event._state.adding = False
    event._state.db = DEFAULT_DB_ALIAS
    return event
