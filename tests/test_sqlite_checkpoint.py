"""The WAL is checkpointed by a background thread, not inside request commits."""

from __future__ import annotations

import sqlite3
import time

import pytest
from django.db import connection

from dbkit.sqlite_checkpoint import FALLBACK_PAGES, ensure_checkpointer


def _writer(path: str) -> sqlite3.Connection:
    """A connection that never checkpoints on its own (and stays open: the last close checkpoints)."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE filler (x BLOB)")
    return db


def _fill_wal(db: sqlite3.Connection, rows: int) -> None:
    for _ in range(rows // 100):
        db.execute("BEGIN")
        db.executemany("INSERT INTO filler VALUES (?)", [(b"x" * 1000,) for _ in range(100)])
        db.execute("COMMIT")


def _wait_for_size(path, above: int, seconds: float) -> int:
    """The file's size once it exceeds ``above`` (a checkpoint copies pages over time), or at the deadline."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.stat().st_size > above:
            break
        time.sleep(0.05)
    return path.stat().st_size


def test_the_thread_copies_the_log_into_the_database(tmp_path):
    path = tmp_path / "db.sqlite3"
    db = _writer(str(path))
    start = path.stat().st_size
    _fill_wal(db, 3000)  # ~3 MB of log
    assert path.stat().st_size == start  # without a checkpoint the database file does not grow
    ensure_checkpointer(str(path), 0.05)
    assert _wait_for_size(path, start + 2_000_000, seconds=30) > start + 2_000_000
    db.close()


def test_without_the_thread_nothing_is_checkpointed(tmp_path):
    path = tmp_path / "db.sqlite3"
    db = _writer(str(path))
    start = path.stat().st_size
    _fill_wal(db, 3000)
    assert _wait_for_size(path, start, seconds=0.5) == start
    db.close()


@pytest.mark.django_db
def test_request_connections_only_checkpoint_as_a_fallback():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        (pages,) = cursor.fetchone()
    assert pages == FALLBACK_PAGES
