"""How durable each commit is on the benchmark's database connection, and setting it for a run.

A commit is *flushed* when the database waits for its log to reach the disk before answering (PostgreSQL's
default ``synchronous_commit = on``; SQLite's ``synchronous = FULL``), *relaxed* when it answers first and the
log is flushed shortly after (PostgreSQL's ``synchronous_commit = off``; SQLite's ``synchronous = NORMAL`` in
WAL mode, memgov's embedded default). Either way a crash of memgov or of the database loses nothing and
corrupts nothing; a relaxed commit can be lost to a power cut or an OS crash right after it. A flush costs a
disk sync, which on some machines is milliseconds — more than the rest of a write — so two databases are
only compared at the same durability.
"""

from __future__ import annotations

from django.db import connection

DURABILITIES = ("default", "flushed", "relaxed")
_SET = {
    ("postgresql", "flushed"): "SET synchronous_commit = on",
    ("postgresql", "relaxed"): "SET synchronous_commit = off",
    ("sqlite", "flushed"): "PRAGMA synchronous = FULL",
    ("sqlite", "relaxed"): "PRAGMA synchronous = NORMAL",
}


def set_durability(durability: str) -> None:
    """Set this connection's commits to ``durability`` (``default`` leaves the configured setting)."""
    if durability not in DURABILITIES:
        raise ValueError(f"--durability must be one of {', '.join(DURABILITIES)} (got {durability!r})")
    statement = _SET.get((connection.vendor, durability))
    if statement is not None:
        with connection.cursor() as cursor:
            cursor.execute(statement)


def commit_durability() -> str:
    """This connection's commit durability, as the benchmark prints it."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW synchronous_commit")
            value = cursor.fetchone()[0]
            return f"synchronous_commit={value} ({'relaxed' if value == 'off' else 'flushed'} commits)"
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA synchronous")
            level = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(cursor.fetchone()[0], "?")
            return f"synchronous={level} ({'flushed' if level in ('FULL', 'EXTRA') else 'relaxed'} commits)"
    return "durability unknown"
