"""After rows holding secrets are deleted: leave no copy in a write-ahead log or in free space.

SQLite: every connection runs with ``secure_delete`` on (config/settings.py), so a deleted row's bytes
are zeroed in the database file; what still holds them is the WAL, until a checkpoint copies it back and
``wal_checkpoint(TRUNCATE)`` empties it. :func:`sqlite_truncate_wal` does that, retrying while another
connection's checkpoint is in the way.

PostgreSQL: a deleted row stays in its page until VACUUM prunes it; :func:`scrub_after_delete` vacuums
the touched tables (``full=True`` rewrites them into new files, for small tables such as the key store).
Only a table's owner may vacuum it (PostgreSQL 15): run as the service role, the vacuum is skipped and
reported, and ``manage.py apply_erasures --vacuum`` run as the owner does it. What no command here can
remove: the server keeps the deleted row's insert and any full-page images in ``pg_wal`` until those
segments are recycled (after checkpoints, within ``max_wal_size`` / ``wal_keep_size``), and forever in a
WAL archive or a replica's copy of it. docs/security.md says what that means for erasure.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

logger = logging.getLogger("memgov.scrub")

# Another connection's checkpoint (each process's background thread runs one a second) makes ours
# answer "busy" at once, without waiting: try again for this long before leaving it to the next one.
TRUNCATE_PATIENCE_SECONDS = 5.0


def sqlite_secure_delete_on(using: str = DEFAULT_DB_ALIAS) -> None:
    """Zero freed pages on this connection, whatever the connection was opened with (or a build's default)."""
    connection = connections[using]
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA secure_delete = ON")


def sqlite_truncate_wal(using: str = DEFAULT_DB_ALIAS) -> bool:
    """Copy the WAL into the database and empty it, so no pre-delete page image survives in it.

    True once the log is empty, or on PostgreSQL, which has none; False inside a transaction, where a
    checkpoint can't run. Readers are waited for by SQLite's busy timeout; a concurrent checkpoint, by
    trying again.
    """
    connection = connections[using]
    if connection.vendor != "sqlite":
        return True
    if connection.in_atomic_block:
        return False
    deadline = time.monotonic() + TRUNCATE_PATIENCE_SECONDS
    while True:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            busy, _log, _done = cursor.fetchone()
        if not busy:
            return True
        if time.monotonic() > deadline:
            logger.warning("WAL checkpoint of %s was blocked; the log is emptied at the next checkpoint", using)
            return False
        time.sleep(0.01)


def _pg_owns(connection: object, table: str) -> bool:
    with connection.cursor() as cursor:  # type: ignore[attr-defined]
        cursor.execute(
            "SELECT pg_has_role(current_user, tableowner, 'USAGE') FROM pg_tables WHERE tablename = %s", [table]
        )
        row = cursor.fetchone()
    return bool(row and row[0])


Table = type[Model] | str


def _name(table: Table) -> str:
    return table if isinstance(table, str) else table._meta.db_table


def pg_vacuum(tables: Iterable[Table], *, using: str = DEFAULT_DB_ALIAS, full: bool = False) -> list[str]:
    """VACUUM (or VACUUM FULL) the tables (models or names) this role owns; returns those it vacuumed."""
    connection = connections[using]
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return []
    names = sorted({_name(table) for table in tables})
    owned = [name for name in names if _pg_owns(connection, name)]
    skipped = sorted(set(names) - set(owned))
    if skipped:
        logger.info("not the owner of %s on %s: left to autovacuum and apply_erasures --vacuum", skipped, using)
    if owned:
        quoted = ", ".join(connection.ops.quote_name(name) for name in owned)
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM {'(FULL) ' if full else ''}{quoted}")
    return owned


def scrub_after_delete(*, tables: Iterable[Table], using: str = DEFAULT_DB_ALIAS, full: bool = False) -> bool:
    """After a committed delete: truncate SQLite's WAL, or vacuum PostgreSQL's tables. True when done."""
    connection = connections[using]
    if connection.vendor == "sqlite":
        return sqlite_truncate_wal(using)
    tables = list(tables)
    return len(pg_vacuum(tables, using=using, full=full)) == len(tables)
