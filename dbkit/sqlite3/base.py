"""Django's SQLite backend, converting each statement's placeholders once rather than on every execute.

Django writes "%s" placeholders; its SQLite cursor rewrites them to "?" with a regular expression on
every execute. On the hot paths (a write runs eight statements, a context read about as many, most of
them long INSERTs) that rewrite scanned more text than all the write pipeline's lexicons together.
The result depends on the statement's text alone, so it is cached. Statements carry placeholders,
never values; very long ones (bulk inserts) are converted as before, uncached.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from functools import lru_cache

from django.db.backends.sqlite3 import base

_CACHED_UP_TO = 8192  # characters


@lru_cache(maxsize=1024)
def _qmark(query: str) -> str:
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class CursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query: str, *, param_names: Sequence[str] | None = None) -> str:
        if param_names is None and len(query) <= _CACHED_UP_TO:
            return _qmark(query)
        return super().convert_query(query, param_names=param_names)


def _create_private(name: object) -> None:
    """Create a new database file readable by its owner only (0600): SQLite would make it 0644, and its
    WAL and shared-memory files take the database file's mode."""
    path = str(name)
    if not path or path == ":memory:" or path.startswith("file:") or os.path.exists(path):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict) -> object:
        _create_private(conn_params.get("database", ""))
        return super().get_new_connection(conn_params)

    def create_cursor(self, name: str | None = None) -> CursorWrapper:
        return self.connection.cursor(factory=CursorWrapper)
