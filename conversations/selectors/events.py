"""Reading the event tree: one event, whether a session can see it, a branch from the root to a leaf.

A session sees its own events and the prefix it was forked from (every ancestor of its fork point,
which may lie in several earlier sessions). Walking parent pointers reads a fork's history across those
sessions without any of it having been copied.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import connection

from conversations.models import Event, Session
from conversations.sql import as_uuid, table, uuid_param


@dataclass(frozen=True)
class Position:
    """Where an event sits in the tree: what an append after it or a state rebuild at it needs."""

    id: uuid.UUID
    session_id: uuid.UUID
    seq: int
    depth: int
    base_id: uuid.UUID | None
    since_base: int


def event_position(*, tenant_id: int, event_id: object) -> Position | None:
    try:
        param = uuid_param(event_id)  # type: ignore[arg-type]
    except (ValueError, TypeError, AttributeError):
        return None
    sql = f"SELECT id, session_id, seq, depth, base_id, since_base FROM {table(Event)} WHERE id = %s AND tenant_id = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [param, tenant_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return Position(as_uuid(row[0]), as_uuid(row[1]), row[2], row[3], as_uuid(row[4]), row[5])  # type: ignore[arg-type]


def is_ancestor_or_self(*, tenant_id: int, ancestor: Position, of_event_id: uuid.UUID) -> bool:
    """Whether ``ancestor`` lies on the branch from the root to ``of_event_id`` (one walk up, bounded by
    the depth difference)."""
    sql = (
        f"WITH RECURSIVE up(id, parent_id, depth) AS ("  # noqa: S608
        f" SELECT id, parent_id, depth FROM {table(Event)} WHERE id = %s AND tenant_id = %s"
        f" UNION ALL SELECT e.id, e.parent_id, e.depth FROM {table(Event)} e JOIN up ON e.id = up.parent_id"
        "  WHERE e.depth >= %s AND e.tenant_id = %s)"
        " SELECT 1 FROM up WHERE id = %s"
    )
    params = [uuid_param(of_event_id), tenant_id, ancestor.depth, tenant_id, uuid_param(ancestor.id)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def event_visible_to(*, session: Session, event_id: object) -> Position | None:
    """The event if it is one of the session's own or on the prefix it was forked from; else None."""
    position = event_position(tenant_id=session.tenant_id, event_id=event_id)
    if position is None:
        return None
    if position.session_id == session.pk:
        return position
    if session.fork_event_id is None:
        return None
    if position.id == session.fork_event_id or is_ancestor_or_self(
        tenant_id=session.tenant_id, ancestor=position, of_event_id=session.fork_event_id
    ):
        return position
    return None


def branch_events(*, tenant_id: int, leaf_id: uuid.UUID, limit: int | None = None) -> list[Event]:
    """The events from the root to ``leaf_id`` (the last ``limit`` of them when given), oldest first.

    Content stays sealed until an event's ``content`` or ``state_delta`` is read.
    """
    steps = limit if limit is not None else 2**31 - 1
    sql = (
        f"WITH RECURSIVE up(id, parent_id, depth, n) AS ("  # noqa: S608
        f" SELECT id, parent_id, depth, 1 FROM {table(Event)} WHERE id = %s AND tenant_id = %s"
        f" UNION ALL SELECT e.id, e.parent_id, e.depth, up.n + 1 FROM {table(Event)} e JOIN up ON e.id = up.parent_id"
        "  WHERE up.n < %s AND e.tenant_id = %s)"
        f" SELECT e.* FROM up JOIN {table(Event)} e ON e.id = up.id ORDER BY up.depth"
    )
    return list(Event.objects.raw(sql, [uuid_param(leaf_id), tenant_id, steps, tenant_id]))


def deltas_since_base(*, tenant_id: int, position: Position) -> list[tuple[uuid.UUID, bytes]]:
    """(event id, sealed delta) of the events after the position's snapshot base up to it, oldest first:
    at most the snapshot interval of them."""
    base_depth = position.depth - position.since_base
    sql = (
        f"WITH RECURSIVE up(id, parent_id, depth, state_delta) AS ("  # noqa: S608
        f" SELECT id, parent_id, depth, state_delta FROM {table(Event)} WHERE id = %s AND tenant_id = %s"
        f" UNION ALL SELECT e.id, e.parent_id, e.depth, e.state_delta FROM {table(Event)} e"
        "  JOIN up ON e.id = up.parent_id WHERE e.depth > %s AND e.tenant_id = %s)"
        " SELECT id, state_delta FROM up WHERE state_delta IS NOT NULL ORDER BY depth"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [uuid_param(position.id), tenant_id, base_depth, tenant_id])
        return [(as_uuid(row[0]), bytes(row[1])) for row in cursor.fetchall()]  # type: ignore[misc]
