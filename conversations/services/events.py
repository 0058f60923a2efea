"""Appending to a session's history, and pop.

An append locks the session (``services.locking``), takes the next ``seq`` values, and inserts the events
after the leaf (or after the ``parent_id`` each names). Every ``session_snapshot_interval`` events along a
branch the full session state is stored with the event, so any state is rebuilt from one snapshot and at
most that many deltas. App and user keys of a delta update the shared state rows in the same transaction.
One audit event records the append (ids, count, kinds); tool results add theirs (§14.1).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from audit.events import Event as AuditKind
from audit.services import audit_append
from conversations.models import Event, Session, Snapshot
from conversations.selectors.events import Position, StoredEvent, event_position, stored_event
from conversations.selectors.state import leaf_position, state_at_position
from conversations.services.audit import session_audit
from conversations.services.errors import SessionInputError, SessionStateError
from conversations.services.locking import session_leaf_save, session_lock, session_lock_with_policy
from conversations.services.scoped import scoped_state_apply
from conversations.services.sealing import seal_value
from conversations.services.tool_results import ToolResult, keep_tool_result, tool_result_effects
from conversations.state import apply_delta, dumps, split_delta
from conversations.validation import check_delta, check_ident, check_text
from conversations.vocabulary import APPENDABLE_KINDS, OUTPUT_KINDS, EventKind, SessionState
from dbkit.ids import new_id
from dbkit.rows import insert_rows, insert_values
from governance.models import AgentClient
from memories.read.tokens import estimate_tokens
from vault.datakeys import data_key_for

MAX_BATCH = 100


@dataclass(frozen=True)
class NewEvent:
    kind: EventKind | str
    content: str | None = None
    state_delta: dict[str, Any] | None = None
    parent_id: uuid.UUID | None = None
    tool_call_id: str = ""
    task_id: str = ""
    tool_result: ToolResult | None = None
    meta: dict[str, Any] | None = None  # service-written events only (ids and codes)


@dataclass
class Appended:
    event: StoredEvent
    kept: Any = None  # the write decision for a tool result kept as memory (memories.services.write.WriteResult)


@dataclass
class _Batch:
    session: Session
    interval: int
    now: datetime
    leaf: Position | None
    pending: list[dict[str, Any]] = field(default_factory=list)  # rows, sealed, not yet inserted
    snapshots: list[Snapshot] = field(default_factory=list)
    positions: dict[uuid.UUID, Position] = field(default_factory=dict)

    def flush(self) -> None:
        insert_values(Event, self.pending)
        insert_rows(self.snapshots)
        self.pending, self.snapshots = [], []

    def state_at(self, position: Position | None) -> dict[str, Any]:
        """Session state at a position, which may be an event of this batch not yet inserted."""
        if self.pending:
            self.flush()
        return state_at_position(tenant_id=self.session.tenant_id, position=position)


def _validated(index: int, new: NewEvent, *, internal: bool) -> NewEvent:
    where = f"events[{index}]"
    try:
        kind = EventKind(new.kind)
    except ValueError:
        raise SessionInputError(f"{where}.kind", f"unknown kind; use one of {', '.join(APPENDABLE_KINDS)}") from None
    if kind not in APPENDABLE_KINDS and not internal:
        raise SessionInputError(f"{where}.kind", f"{kind} events are written by memgov itself")
    if new.tool_result is not None and kind != EventKind.TOOL_RESULT:
        raise SessionInputError(f"{where}.tool_result", "only a tool_result event has one")
    check_text(f"{where}.content", new.content)
    delta = check_delta(f"{where}.state_delta", new.state_delta, allow_task_keys=internal)
    check_ident(f"{where}.tool_call_id", new.tool_call_id)
    check_ident(f"{where}.task_id", new.task_id)
    if new.tool_result is not None:
        new.tool_result.check(f"{where}.tool_result", task_id=new.task_id)
    return NewEvent(
        kind=kind,
        content=new.content,
        state_delta=delta,
        parent_id=new.parent_id,
        tool_call_id=new.tool_call_id,
        task_id=new.task_id,
        tool_result=new.tool_result,
        meta=new.meta if internal else None,
    )


def _parent(batch: _Batch, index: int, parent_id: uuid.UUID | None) -> Position | None:
    """Where the event goes: after the leaf, or after the named event of this session (or its fork point)."""
    if parent_id is None:
        return batch.leaf
    if batch.leaf is not None and parent_id == batch.leaf.id:
        return batch.leaf
    if parent_id in batch.positions:
        return batch.positions[parent_id]
    session = batch.session
    position = event_position(tenant_id=session.tenant_id, event_id=parent_id)
    if position is None or (position.session_id != session.pk and position.id != session.fork_event_id):
        raise SessionInputError(f"events[{index}].parent_id", "no such event in this session")
    return position


def session_events_append(
    *,
    tenant_id: int,
    session_id: uuid.UUID,
    events: Sequence[NewEvent],
    actor: str,
    agent: AgentClient | None = None,
    internal: bool = False,
) -> list[Appended]:
    """Append events in order (each after the previous one unless it names a ``parent_id``); the leaf
    moves to the last. Raises SessionInputError (nothing stored) or SessionStateError (the session ended)."""
    if not events:
        raise SessionInputError("events", "send at least one event")
    if len(events) > MAX_BATCH:
        raise SessionInputError("events", f"at most {MAX_BATCH} events per request")
    checked = [_validated(i, new, internal=internal) for i, new in enumerate(events)]
    with transaction.atomic():
        # Read again though the caller's access check just found it: only a read inside this transaction (locked
        # on PostgreSQL, after BEGIN IMMEDIATE on SQLite) sees the leaf and next_seq a concurrent append left.
        session, policy = session_lock_with_policy(tenant_id=tenant_id, session_id=session_id)
        if session.state == SessionState.ENDED:
            raise SessionStateError("the session has ended: nothing more can be appended", code="ended")
        # Fetched before the first seal: inside the transaction a new key is only cached on commit.
        data_key_for(tenant_id=tenant_id, owner=session.user_id)
        batch = _Batch(session, policy.session_snapshot_interval, timezone.now(), leaf_position(session))
        appended, audits = _build(batch, checked, actor=actor)
        batch.flush()
        _finish(batch, appended)
        audits.insert(0, _append_audit(session, appended, actor))
        for item, new in zip(appended, checked, strict=True):
            if new.tool_result is not None and new.tool_result.keep is not None:
                item.kept = keep_tool_result(session=session, event=item.event, new=new, actor=actor, agent=agent)
        audit_append(audits)
    return appended


def _build(batch: _Batch, checked: list[NewEvent], *, actor: str) -> tuple[list[Appended], list[dict]]:
    session = batch.session
    appended: list[Appended] = []
    audits: list[dict] = []
    app_delta: dict[str, Any] = {}
    user_delta: dict[str, Any] = {}
    for index, new in enumerate(checked):
        parent = _parent(batch, index, new.parent_id)
        event_id = new_id()  # before the row: a tool result's task state names it
        delta = dict(new.state_delta) if new.state_delta else None
        if new.tool_result is not None and new.task_id:
            effect = tool_result_effects(
                batch=batch, session=session, parent=parent, new=new, event_id=event_id, actor=actor
            )
            if effect is not None:
                delta = {**(delta or {}), **effect.delta}
                audits.extend(effect.audits)
        elif new.tool_result is not None:
            audits.extend(new.tool_result.audits(session=session, event_id=event_id, new=new, actor=actor))
        seq = session.next_seq
        session.next_seq += 1
        depth = (parent.depth if parent else 0) + 1
        since = (parent.since_base if parent else 0) + 1
        base = parent.base_id if parent else None
        tokens = estimate_tokens(new.content) if new.content else 0
        delta_text = dumps(delta) if delta else None
        summary = event_id if new.kind == EventKind.COMPACTION else (parent.summary_id if parent else None)
        session_part: dict[str, Any] = {}
        if delta:
            app_part, user_part, session_part = split_delta(delta)
            app_delta.update(app_part)
            user_delta.update(user_part)
        if since >= batch.interval:
            values = apply_delta(batch.state_at(parent), session_part)
            snapshot = Snapshot(event_id=event_id, tenant_id=session.tenant_id, values=dumps(values))
            snapshot._owner = session.user_id
            batch.snapshots.append(snapshot)
            base, since = event_id, 0
        row = {
            "id": event_id,
            "tenant_id": session.tenant_id,
            "session_id": session.pk,
            "seq": seq,
            "parent_id": parent.id if parent else None,
            "depth": depth,
            "base_id": base,
            "since_base": since,
            "summary_id": summary,
            "kind": str(new.kind),
            "content": seal_value(Event, "content", session=session, record_id=event_id, text=new.content),
            "state_delta": seal_value(Event, "state_delta", session=session, record_id=event_id, text=delta_text),
            "tool_call_id": new.tool_call_id,
            "task_id": new.task_id,
            "tokens": tokens,
            "meta": new.meta or ({"result_type": str(new.tool_result.type)} if new.tool_result else None),
            "created_at": batch.now,
        }
        event = stored_event(row, content=new.content, state_delta=delta_text)
        position = Position(event_id, session.pk, seq, depth, base, since, summary)
        batch.positions[event_id] = position
        batch.leaf = position
        batch.pending.append(row)
        appended.append(Appended(event))
    if app_delta:
        scoped_state_apply(tenant_id=session.tenant_id, app=session.app, user_id="", delta=app_delta)
    if user_delta:
        scoped_state_apply(tenant_id=session.tenant_id, app=session.app, user_id=session.user_id, delta=user_delta)
    return appended, audits


def _finish(batch: _Batch, appended: list[Appended]) -> None:
    session, leaf = batch.session, batch.leaf
    assert leaf is not None
    output = sum(item.event.tokens for item in appended if item.event.kind in OUTPUT_KINDS)
    total = sum(item.event.tokens for item in appended)
    session.leaf_id, session.leaf_seq, session.leaf_depth = leaf.id, leaf.seq, leaf.depth
    session.leaf_base_id, session.leaf_since_base = leaf.base_id, leaf.since_base
    session.leaf_summary_id = leaf.summary_id
    session.event_count += len(appended)
    session.output_tokens += output
    session.input_tokens += total - output
    session.last_active_at = batch.now
    resumed = session.state in (SessionState.CREATED, SessionState.SUSPENDED)
    if resumed:  # the first event makes a session active; an append to a suspended one resumes it
        session.state = SessionState.ACTIVE
    session_leaf_save(session, state_changed=resumed)


def _append_audit(session: Session, appended: list[Appended], actor: str) -> dict:
    return session_audit(
        session=session,
        event=AuditKind.SESSION_EVENTS_APPENDED,
        actor=actor,
        count=len(appended),
        kinds=sorted({item.event.kind for item in appended}),
        first_seq=appended[0].event.seq,
        last_seq=appended[-1].event.seq,
        leaf_id=str(appended[-1].event.id),
    )


@transaction.atomic
def session_pop(*, tenant_id: int, session_id: uuid.UUID, actor: str) -> Event:
    """Move the leaf back to its parent and return the event left behind; nothing is erased (the event
    stays in the tree, off the branch). A fork's leaf doesn't move above its fork point."""
    session = session_lock(tenant_id=tenant_id, session_id=session_id)
    if session.state == SessionState.ENDED:
        raise SessionStateError("the session has ended", code="ended")
    if session.leaf_id is None:
        raise SessionStateError("the session has no events: nothing to pop", code="empty")
    if session.leaf_id == session.fork_event_id:
        raise SessionStateError("the leaf is the fork point: nothing of this session's own to pop", code="empty")
    left = Event.objects.get(pk=session.leaf_id, tenant_id=tenant_id)
    parent = event_position(tenant_id=tenant_id, event_id=left.parent_id) if left.parent_id else None
    session.leaf_id = parent.id if parent else None
    session.leaf_seq = parent.seq if parent else 0
    session.leaf_depth = parent.depth if parent else 0
    session.leaf_base_id = parent.base_id if parent else None
    session.leaf_since_base = parent.since_base if parent else 0
    session.leaf_summary_id = parent.summary_id if parent else None
    session.last_active_at = timezone.now()
    session.save(
        update_fields=[
            "leaf_id",
            "leaf_seq",
            "leaf_depth",
            "leaf_base_id",
            "leaf_since_base",
            "leaf_summary_id",
            "last_active_at",
        ]
    )
    audit_append(
        [
            session_audit(
                session=session,
                event=AuditKind.SESSION_POPPED,
                actor=actor,
                event_id=str(left.pk),
                leaf_id=str(session.leaf_id) if session.leaf_id else None,
            )
        ]
    )
    return left
