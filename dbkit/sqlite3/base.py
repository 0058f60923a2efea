"""Django's SQLite backend, converting each statement's placeholders once rather than on every execute.

Django writes "%s" placeholders; its SQLite cursor rewrites them to "?" with a regular expression on
every execute. On the hot paths (a write runs eight statements, a context read about as many, most of
them long INSERTs) that rewrite scanned more text than all the write pipeline's lexicons together.
The result depends on the statement's text alone, so it is cached. Statements carry placeholders,
never values; very long ones (bulk inserts) are converted as before, uncached.
"""

from __future__ import annotations

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


class DatabaseWrapper(base.DatabaseWrapper):
    def create_cursor(self, name: str | None = None) -> CursorWrapper:
        return self.connection.cursor(factory=CursorWrapper)
