"""Data keys of an installation from before the key store had its own database.

They sit in the content database's ``memories_datakey`` table (created by memories' first migration).
:func:`legacy_keys_move` copies each row to the key store with its id — every ciphertext names its key
by id — then deletes it from the content database and scrubs that table (dbkit/scrub.py). A system
check (vault/checks.py) warns while any are left.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections, transaction

from dbkit.scrub import scrub_after_delete
from vault.router import KEYS_DB

LEGACY_TABLE = "memories_datakey"
COLUMNS = ("id", "tenant_id", "owner", "wrapped_key", "master_key_version", "created_at")


def legacy_keys_left() -> int:
    """How many data keys are still in the content database (0 when its legacy table is gone or empty)."""
    connection = connections[DEFAULT_DB_ALIAS]
    if LEGACY_TABLE not in connection.introspection.table_names():
        return 0
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(LEGACY_TABLE)}")  # noqa: S608
        return int(cursor.fetchone()[0])


def legacy_keys_move() -> tuple[int, int]:
    """(moved, already in the key store). Idempotent, and safe to interrupt: a row leaves the content
    database only once the key store holds it."""
    from vault.models import DataKey

    content = connections[DEFAULT_DB_ALIAS]
    if LEGACY_TABLE not in content.introspection.table_names():
        return 0, 0
    table = content.ops.quote_name(LEGACY_TABLE)
    with content.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(COLUMNS)} FROM {table} ORDER BY id")  # noqa: S608
        rows = [dict(zip(COLUMNS, row, strict=True)) for row in cursor.fetchall()]
    moved = already = 0
    for row in rows:
        with transaction.atomic(using=KEYS_DB):
            existing = DataKey.objects.using(KEYS_DB).filter(pk=row["id"]).first()
            if existing is None:
                DataKey.objects.using(KEYS_DB).create(**{**row, "wrapped_key": bytes(row["wrapped_key"])})
                moved += 1
            elif (existing.tenant_id, existing.owner) == (row["tenant_id"], row["owner"]):
                already += 1
            else:
                raise RuntimeError(f"key store id {row['id']} belongs to another subject; nothing was deleted")
    if rows:
        _reset_key_store_sequence()
        with transaction.atomic(using=DEFAULT_DB_ALIAS), content.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE id <= %s", [rows[-1]["id"]])  # noqa: S608
        scrub_after_delete(tables=[LEGACY_TABLE], full=True)
    return moved, already


def _reset_key_store_sequence() -> None:
    """New keys must not reuse a moved key's id (PostgreSQL's sequence doesn't know of inserted ids)."""
    from vault.models import DataKey

    keys = connections[KEYS_DB]
    if keys.vendor != "postgresql":
        return  # SQLite's rowid already continues after the largest id
    with keys.cursor() as cursor:
        for sql in keys.ops.sequence_reset_sql(_NoStyle(), [DataKey]):
            cursor.execute(sql)


class _NoStyle:
    def __getattr__(self, name: str):  # Django's no-colour style object
        return lambda text: text
