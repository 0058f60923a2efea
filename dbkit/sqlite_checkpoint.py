"""SQLite WAL checkpoints off the request path.

In WAL mode SQLite copies the log back into the database ("checkpoints") from inside whichever
commit pushes the log past 1,000 pages, and that commit also waits for the fsync: one request in a
few hundred took 20+ ms instead of 5 (README, "The write benchmark"). Here each process runs one
background thread that checkpoints every ``MEMGOV_SQLITE_CHECKPOINT_SECONDS`` (PASSIVE: it never
blocks readers or writers), and request connections checkpoint themselves only if the log passes
:data:`FALLBACK_PAGES` — i.e. only if that thread has stopped or fallen far behind.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

FALLBACK_PAGES = 10_000  # ~40 MB of log with 4 KiB pages
_started: set[tuple[int, str]] = set()
_lock = threading.Lock()


def on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Django's ``connection_created`` signal: configure a new SQLite connection, start the thread."""
    if connection.vendor != "sqlite":
        return
    interval = float(getattr(settings, "MEMGOV_SQLITE_CHECKPOINT_SECONDS", 0))
    path = str(connection.settings_dict["NAME"])
    if interval <= 0 or path == ":memory:" or "mode=memory" in path:
        return
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA wal_autocheckpoint={FALLBACK_PAGES}")
    ensure_checkpointer(path, interval)


def ensure_checkpointer(path: str, interval: float) -> None:
    """Start this process's checkpoint thread for ``path`` unless it runs already (one per pid: forks)."""
    key = (os.getpid(), path)
    with _lock:
        if key in _started:
            return
        _started.add(key)
    thread = threading.Thread(target=_checkpoint_forever, args=(path, interval), name="sqlite-checkpoint", daemon=True)
    thread.start()


def _checkpoint_forever(path: str, interval: float) -> None:
    db = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    failures = 0
    while True:
        time.sleep(interval)
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            failures = 0
        except sqlite3.Error as exc:
            failures += 1
            if failures == 1:  # request connections still checkpoint past FALLBACK_PAGES
                logger.warning("background WAL checkpoint failed (%s); retrying", type(exc).__name__)
