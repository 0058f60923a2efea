"""Database triggers that make the audit tables append-only, for SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db.backends.base.base import BaseDatabaseWrapper

AUDIT_TABLES = ("audit_auditevent",)
MESSAGE = "audit events are append-only"


def _sqlite_create(table: str) -> list[str]:
    return [
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;",
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;",
    ]


def _sqlite_drop(table: str) -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {table}_no_update;", f"DROP TRIGGER IF EXISTS {table}_no_delete;"]


_PG_FUNCTION = f"""
CREATE OR REPLACE FUNCTION memgov_refuse_audit_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def _pg_create(table: str) -> list[str]:
    return [
        _PG_FUNCTION,
        f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};",
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION memgov_refuse_audit_change();",
    ]


def _pg_drop(table: str) -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};"]


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
    """Drop the triggers for the duration: what an attacker with DB access would do (tests only)."""
    remove_triggers(connection)
    try:
        yield
    finally:
        install_triggers(connection)
