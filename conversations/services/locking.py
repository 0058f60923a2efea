"""One session's writes run one at a time: its row is locked for the transaction.

PostgreSQL: ``SELECT … FOR UPDATE`` on the session row; a second append waits for the first to commit
and then reads the leaf and ``next_seq`` it left. SQLite: every write transaction is ``BEGIN IMMEDIATE``
(config/settings.py), so writers are serialized by the database already. The unique (session, seq)
constraint is the backstop either way.
"""

from __future__ import annotations

from django.db import connection

from conversations.models import Session
from conversations.services.errors import SessionStateError
from conversations.sql import table, uuid_param
from dbkit.rows import select_instances, select_instances_with
from governance.models import PolicyVersion
from governance.pipeline.base import PolicySnapshot
from governance.policy import default_policy_document, snapshot_from_document, snapshot_from_text


def session_lock_with_policy(*, tenant_id: int, session_id: object) -> tuple[Session, PolicySnapshot]:
    """:func:`session_lock` and the tenant's policy in force, in one statement (an append needs both)."""
    where = "id = %s AND tenant_id = %s AND deleted_at IS NULL"
    if connection.features.has_select_for_update:
        where += f" FOR UPDATE OF {table(Session)}"
    policies = table(PolicyVersion)
    latest = f"FROM {policies} WHERE tenant_id = %s ORDER BY version DESC LIMIT 1"
    extra = [f"(SELECT version {latest})", f"(SELECT CAST(document AS TEXT) {latest})"]
    found = select_instances_with(
        Session,
        where,
        [tenant_id, tenant_id, uuid_param(session_id), tenant_id],
        extra=extra,  # type: ignore[arg-type]
    )
    if not found:
        raise SessionStateError("the session was deleted", code="gone")
    session, (version, document) = found[0]
    if document is None:
        return session, snapshot_from_document(default_policy_document(), version=0)  # type: ignore[return-value]
    return session, snapshot_from_text(str(document), version=int(version))  # type: ignore[return-value]


def session_lock(*, tenant_id: int, session_id: object) -> Session:
    """The live session, locked until the transaction ends. Call inside ``transaction.atomic``.

    Raw SQL (``dbkit.rows.select_instances``): every append runs it, and the ORM's query building cost
    several times the query.
    """
    where = "id = %s AND tenant_id = %s AND deleted_at IS NULL"
    if connection.features.has_select_for_update:
        where += " FOR UPDATE"
    found = select_instances(Session, where, [uuid_param(session_id), tenant_id])  # type: ignore[arg-type]
    if not found:
        raise SessionStateError("the session was deleted", code="gone")
    return found[0]  # type: ignore[return-value]


def session_leaf_save(session: Session, *, state_changed: bool) -> None:
    """Write what an append changed on the session row (its leaf, counters, activity, state) in one UPDATE,
    from values already in the column types (no per-field preparation on the hot path)."""
    leaf_id = uuid_param(session.leaf_id) if session.leaf_id else None
    base_id = uuid_param(session.leaf_base_id) if session.leaf_base_id else None
    sql = (
        f"UPDATE {table(Session)} SET leaf_id = %s, leaf_seq = %s, leaf_depth = %s, leaf_base_id = %s,"  # noqa: S608
        " leaf_since_base = %s, leaf_summary_id = %s, next_seq = %s, event_count = %s, input_tokens = %s,"
        " output_tokens = %s, last_active_at = %s" + (", state = %s" if state_changed else "") + " WHERE id = %s"
    )
    params = [
        leaf_id,
        session.leaf_seq,
        session.leaf_depth,
        base_id,
        session.leaf_since_base,
        uuid_param(session.leaf_summary_id) if session.leaf_summary_id else None,
        session.next_seq,
        session.event_count,
        session.input_tokens,
        session.output_tokens,
        connection.ops.adapt_datetimefield_value(session.last_active_at),
        *([str(session.state)] if state_changed else []),  # not otherwise: SQLite rewrites the indexes of set columns
        uuid_param(session.pk),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
