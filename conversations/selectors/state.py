"""The state of a session: at its leaf or at any event it can see (time travel), merged with the app and
user state it shares."""

from __future__ import annotations

import uuid

from django.db import connection

from conversations.models import Event, ScopedState, Session, Snapshot
from conversations.selectors.events import Position, deltas_since_base
from conversations.sql import as_uuid, table, uuid_param
from conversations.state import State, apply_delta, loads, merged_view
from conversations.vocabulary import APP_PREFIX, USER_PREFIX
from vault.fields import decrypt_column


def leaf_position(session: Session) -> Position | None:
    if session.leaf_id is None:
        return None
    return Position(
        session.leaf_id,
        session.pk,
        session.leaf_seq,
        session.leaf_depth,
        session.leaf_base_id,
        session.leaf_since_base,
        session.leaf_summary_id,
    )


def _snapshot_blob(event_id: uuid.UUID) -> bytes | None:
    sql = f"SELECT {connection.ops.quote_name('values')} FROM {table(Snapshot)} WHERE event_id = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [uuid_param(event_id)])
        row = cursor.fetchone()
    return bytes(row[0]) if row is not None else None


def state_at_position(*, tenant_id: int, position: Position | None) -> State:
    """The session-scope state just after the event at ``position``: its snapshot base, then the deltas
    after it (at most the snapshot interval)."""
    if position is None:
        return {}
    state: State = {}
    if position.base_id is not None:
        blob = _snapshot_blob(position.base_id)
        if blob is not None:
            base = decrypt_column(
                Snapshot, "values", tenant_id=tenant_id, record_id=str(position.base_id), blob=bytes(blob)
            )
            state = loads(base) or {}
    if position.since_base == 0:
        return state
    for event_id, blob in deltas_since_base(tenant_id=tenant_id, position=position):
        delta = loads(decrypt_column(Event, "state_delta", tenant_id=tenant_id, record_id=str(event_id), blob=blob))
        apply_delta(state, {k: v for k, v in delta.items() if not k.startswith((APP_PREFIX, USER_PREFIX))})
    return state


def scoped_states(*, tenant_id: int, app: str, user_id: str) -> tuple[State, State]:
    """The current app state and the subject's user state in the app, read in one statement."""
    column = connection.ops.quote_name("values")
    sql = (
        f"SELECT id, user_id, {column} FROM {table(ScopedState)}"  # noqa: S608
        " WHERE tenant_id = %s AND app = %s AND user_id IN (%s, %s)"
    )
    found: dict[str, State] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_id, app, "", user_id])
        for row_id, owner, blob in cursor.fetchall():
            text = decrypt_column(
                ScopedState, "values", tenant_id=tenant_id, record_id=str(as_uuid(row_id)), blob=bytes(blob)
            )
            found[owner] = loads(text) or {}
    return found.get("", {}), found.get(user_id, {})


def session_state_at(*, session: Session, at: Position | None = None) -> State:
    """The merged view (app, user, then session state) at ``at`` (default: the leaf).

    Session state is time-travelled; app and user state are shared with other sessions and always
    current, so what another session changed since is what this one sees too.
    """
    position = at if at is not None else leaf_position(session)
    app, user = scoped_states(tenant_id=session.tenant_id, app=session.app, user_id=session.user_id)
    return merged_view(app=app, user=user, session=state_at_position(tenant_id=session.tenant_id, position=position))
