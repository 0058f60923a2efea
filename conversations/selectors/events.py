"""Reading the event tree: one event, whether a session can see it, a branch from the root to a leaf.

A session sees its own events and the prefix it was forked from (every ancestor of its fork point,
which may lie in several earlier sessions). Walking parent pointers reads a fork's history across those
sessions without any of it having been copied.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from django.db import connection

from conversations.models import Event, Session
from conversations.sql import as_uuid, table, uuid_param
from vault.fields import decrypt_column


@dataclass(frozen=True)
class Position:
    """Where an event sits in the tree: what an append after it or a state rebuild at it needs."""

    id: uuid.UUID
    session_id: uuid.UUID
    seq: int
    depth: int
    base_id: uuid.UUID | None
    since_base: int
    summary_id: uuid.UUID | None = None


def event_position(*, tenant_id: int, event_id: object) -> Position | None:
    try:
        param = uuid_param(event_id)  # type: ignore[arg-type]
    except (ValueError, TypeError, AttributeError):
        return None
    sql = (
        f"SELECT id, session_id, seq, depth, base_id, since_base, summary_id FROM {table(Event)}"  # noqa: S608
        " WHERE id = %s AND tenant_id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [param, tenant_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return Position(as_uuid(row[0]), as_uuid(row[1]), row[2], row[3], as_uuid(row[4]), row[5], as_uuid(row[6]))  # type: ignore[arg-type]


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


_COLUMNS = ("id", "session_id", "seq", "parent_id", "depth", "kind", "content", "state_delta", "tool_call_id",
            "task_id", "tokens", "meta", "created_at")  # fmt: skip


@dataclass
class StoredEvent:
    """An event as a branch read returns it: its columns, with content and delta opened on first use.

    Lighter than a model instance (a branch read returns thousands); the same attribute names as ``Event``.
    """

    tenant_id: int
    id: uuid.UUID
    session_id: uuid.UUID
    seq: int
    parent_id: uuid.UUID | None
    depth: int
    kind: str
    sealed_content: bytes | None
    sealed_delta: bytes | None
    tool_call_id: str
    task_id: str
    tokens: int
    meta: dict[str, Any] | None
    created_at: datetime

    @property
    def pk(self) -> uuid.UUID:
        return self.id

    def _open(self, field: str, blob: bytes | None) -> str | None:
        if blob is None:
            return None
        return decrypt_column(Event, field, tenant_id=self.tenant_id, record_id=str(self.id), blob=blob)

    @cached_property
    def content(self) -> str | None:
        return self._open("content", self.sealed_content)

    @cached_property
    def state_delta(self) -> str | None:
        return self._open("state_delta", self.sealed_delta)


def _stored(tenant_id: int, row: tuple[Any, ...]) -> StoredEvent:
    (event_id, session_id, seq, parent_id, depth, kind, content, delta, tool_call_id, task_id, tokens, meta,
     created_at) = row  # fmt: skip
    if isinstance(meta, str):
        meta = json.loads(meta)
    if isinstance(created_at, str):  # SQLite: UTC text, or a naive UTC datetime where the column's type is known
        created_at = datetime.fromisoformat(created_at)
    if created_at.tzinfo is None:
        created_at = created_at.replace(tzinfo=UTC)
    return StoredEvent(
        tenant_id, as_uuid(event_id), as_uuid(session_id), seq, as_uuid(parent_id), depth, kind,  # type: ignore[arg-type]
        bytes(content) if content is not None else None, bytes(delta) if delta is not None else None,
        tool_call_id, task_id, tokens, meta, created_at,
    )  # fmt: skip


def stored_event(row: dict[str, Any], *, content: str | None, state_delta: str | None) -> StoredEvent:
    """The StoredEvent of a row an append just built (its plaintext known, so never opened again)."""
    event = StoredEvent(
        row["tenant_id"], row["id"], row["session_id"], row["seq"], row["parent_id"], row["depth"], row["kind"],
        row["content"], row["state_delta"], row["tool_call_id"], row["task_id"], row["tokens"], row["meta"],
        row["created_at"],
    )  # fmt: skip
    event.__dict__["content"] = content
    event.__dict__["state_delta"] = state_delta
    return event


def branch_events(
    *, tenant_id: int, leaf_id: uuid.UUID, limit: int | None = None, below_depth: int = 0
) -> list[StoredEvent]:
    """The events from the root to ``leaf_id`` (the last ``limit`` of them when given), oldest first: one walk
    up the parent pointers, across the sessions a fork's prefix lies in. Content stays sealed until read.

    ``below_depth``: only the events deeper than that (the root is at depth 1): the walk stops there."""
    steps = limit if limit is not None else 2**31 - 1
    columns = ", ".join(f"e.{connection.ops.quote_name(name)}" for name in _COLUMNS)
    sql = (
        f"WITH RECURSIVE up(id, parent_id, depth, n) AS ("  # noqa: S608
        f" SELECT id, parent_id, depth, 1 FROM {table(Event)} WHERE id = %s AND tenant_id = %s AND depth > %s"
        f" UNION ALL SELECT e.id, e.parent_id, e.depth, up.n + 1 FROM {table(Event)} e JOIN up ON e.id = up.parent_id"
        "  WHERE up.n < %s AND e.tenant_id = %s AND e.depth > %s)"
        f" SELECT {columns} FROM up JOIN {table(Event)} e ON e.id = up.id ORDER BY up.depth"
    )
    params = [uuid_param(leaf_id), tenant_id, below_depth, steps, tenant_id, below_depth]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [_stored(tenant_id, row) for row in cursor.fetchall()]


@dataclass(frozen=True)
class BranchPage:
    events: list[StoredEvent]
    has_more: bool  # earlier events of the range exist, before ``events[0]``


def branch_after(*, tenant_id: int, leaf_id: uuid.UUID, after_id: object, limit: int) -> BranchPage | None:
    """The events of the branch ending at ``leaf_id`` that come after the event ``after_id`` (the last
    ``limit`` of them), oldest first; None when ``after_id`` is not on that branch (unknown, another tenant's,
    off the branch, or after the leaf).

    What a client that has read the branch up to an event asks for: only what was appended since. Every
    ancestor of an event a session sees is one it sees too, so being on the branch is the access check.
    """
    after = event_position(tenant_id=tenant_id, event_id=after_id)
    if after is None:
        return None
    if after.id == leaf_id:
        return BranchPage([], has_more=False)
    events = branch_events(tenant_id=tenant_id, leaf_id=leaf_id, limit=limit, below_depth=after.depth)
    if not events:
        return None  # the leaf is no deeper than the event, and is not it
    oldest = events[0]
    if oldest.depth == after.depth + 1:  # the walk reached the depth just below: its parent must be the event
        return BranchPage(events, has_more=False) if oldest.parent_id == after.id else None
    # ``limit`` events before reaching it: earlier ones remain, if the event is on the branch at all.
    assert oldest.parent_id is not None
    on_branch = is_ancestor_or_self(tenant_id=tenant_id, ancestor=after, of_event_id=oldest.parent_id)
    return BranchPage(events, has_more=True) if on_branch else None


def events_by_id(*, tenant_id: int, ids: list[uuid.UUID]) -> list[StoredEvent]:
    """These events (of the tenant), in no particular order."""
    if not ids:
        return []
    columns = ", ".join(f"e.{connection.ops.quote_name(name)}" for name in _COLUMNS)
    marks = ", ".join(["%s"] * len(ids))
    sql = f"SELECT {columns} FROM {table(Event)} e WHERE e.tenant_id = %s AND e.id IN ({marks})"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_id, *[uuid_param(i) for i in ids]])
        return [_stored(tenant_id, row) for row in cursor.fetchall()]


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
