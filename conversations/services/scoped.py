"""App and user state: the shared rows that the ``app:`` and ``user:`` keys of appended deltas change."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from conversations.models import ScopedState
from conversations.sql import as_uuid, table
from conversations.state import apply_delta, dumps, loads
from vault.fields import decrypt_column


def _locked(*, tenant_id: int, app: str, user_id: str) -> tuple[Any, dict[str, Any]] | None:
    """(id, values) of the row, locked for the transaction (SQLite: its writer lock already is)."""
    column = connection.ops.quote_name("values")
    sql = f"SELECT id, {column} FROM {table(ScopedState)} WHERE tenant_id = %s AND app = %s AND user_id = %s"  # noqa: S608
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_id, app, user_id])
        row = cursor.fetchone()
    if row is None:
        return None
    record_id = str(as_uuid(row[0]))
    text = decrypt_column(ScopedState, "values", tenant_id=tenant_id, record_id=record_id, blob=bytes(row[1]))
    return row[0], loads(text) or {}


def scoped_state_apply(*, tenant_id: int, app: str, user_id: str, delta: dict[str, Any]) -> None:
    """Apply a delta to the app state (``user_id=""``) or a subject's user state, locked against other
    sessions changing it at the same moment. Inside the caller's transaction (the append's).

    Raw SQL: a fifth of a chat's appends carry app or user keys, and the ORM's save cost more than the
    statements.
    """
    found = _locked(tenant_id=tenant_id, app=app, user_id=user_id)
    if found is None:
        try:
            with transaction.atomic():
                row = ScopedState(tenant_id=tenant_id, app=app, user_id=user_id, values=dumps(apply_delta({}, delta)))
                row.version = 1
                row.save(force_insert=True)
            return
        except IntegrityError:
            found = _locked(tenant_id=tenant_id, app=app, user_id=user_id)  # another session created it first
            assert found is not None
    row_id, values = found
    # Sealed through the field, as the ORM would: the associated data binds the ciphertext to this row.
    holder = ScopedState(id=as_uuid(row_id), tenant_id=tenant_id, app=app, user_id=user_id)
    holder.values = dumps(apply_delta(values, delta))
    field = ScopedState._meta.get_field("values")
    blob = field.get_db_prep_save(field.pre_save(holder, False), connection)
    column = connection.ops.quote_name("values")
    sql = f"UPDATE {table(ScopedState)} SET {column} = %s, version = version + 1, updated_at = %s WHERE id = %s"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [blob, connection.ops.adapt_datetimefield_value(timezone.now()), row_id])
