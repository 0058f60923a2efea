"""Database triggers that make the audit tables append-only, for SQLite and PostgreSQL.

Events refuse UPDATE, DELETE and (PostgreSQL) TRUNCATE. The chain head is updated on every append, so it
refuses only DELETE and TRUNCATE: a missing head is what a cut-off chain would otherwise hide behind.
Triggers stop mistakes and the application's own role; the table owner can drop them, which is why the
service runs as a role that owns nothing (audit/pg_roles.py) and why heads are checkpointed outside the
database (audit/checkpoints.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db.backends.base.base import BaseDatabaseWrapper

EVENTS = "audit_auditevent"
HEAD = "audit_auditchainhead"
AUDIT_TABLES = (EVENTS, HEAD)
MESSAGE = "audit events are append-only"
_REFUSED = {EVENTS: ("UPDATE", "DELETE"), HEAD: ("DELETE",)}


def _sqlite_create(table: str) -> list[str]:
    return [
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;"
        for op in _REFUSED[table]
    ]


def _sqlite_drop(table: str) -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {table}_no_{op.lower()};" for op in _REFUSED[table]]


_PG_FUNCTION = f"""
CREATE OR REPLACE FUNCTION memgov_refuse_audit_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def _pg_create(table: str) -> list[str]:
    ops = " OR ".join(_REFUSED[table])
    return [
        _PG_FUNCTION,
        *_pg_drop(table),
        f"CREATE TRIGGER {table}_append_only BEFORE {ops} ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION memgov_refuse_audit_change();",
        # Row triggers never see a TRUNCATE; a statement trigger does.
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        f"FOR EACH STATEMENT EXECUTE FUNCTION memgov_refuse_audit_change();",
    ]


def _pg_drop(table: str) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};",
        f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};",
    ]


def _statements(vendor: str, *, create: bool) -> list[str]:
    if vendor == "sqlite":
        build = _sqlite_create if create else _sqlite_drop
    elif vendor == "postgresql":
        build = _pg_create if create else _pg_drop
    else:
        raise NotImplementedError(f"append-only triggers are not written for {vendor}")
    return [sql for table in AUDIT_TABLES for sql in build(table)]


def install_triggers(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        for sql in _statements(connection.vendor, create=True):
            cursor.execute(sql)


def remove_triggers(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        for sql in _statements(connection.vendor, create=False):
            cursor.execute(sql)


@contextmanager
def triggers_disabled(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """Drop the triggers for the duration: what the tables' owner could do (tests only)."""
    remove_triggers(connection)
    try:
        yield
    finally:
        install_triggers(connection)
