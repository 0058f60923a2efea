"""Reading the SQLite database file's raw bytes in tests, without breaking SQLite's locks."""

from __future__ import annotations

import subprocess
from pathlib import Path


def sqlite_file_bytes(path: Path) -> bytes:
    """The database file followed by its WAL, read by a child process.

    Opening and closing the file in this process would drop every POSIX lock SQLite holds on it
    (fcntl locks belong to the process, and any close() of the file releases them all); another
    process could then take our live WAL for an abandoned one and reset it under our connections.
    """
    files = [p for p in (path, path.with_name(path.name + "-wal")) if p.exists()]
    return b"".join(subprocess.run(["cat", str(p)], check=True, capture_output=True).stdout for p in files)
