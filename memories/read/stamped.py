"""The rows of the indexed read's candidate statement (``scope._stamped_column``), read a column at a time.

A row per visible memory is unavoidable (the scope filter is SQL, and stays the only judge of what a caller
may see), but the indexed read needs little of each: its id and stamp to find its index entry, and what
ranking reads (``columns.CandidateColumns``). Those are read for all rows at once with numpy — ids as
32 hex digits, stamps as bytes, dates as text parsed to microseconds — and a ``ContextCandidate`` is made
only for the few a read shows. Making one per row (an id in canonical form, two aware dates, a named tuple)
cost more than the statement itself.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Any

import numpy as np
from django.db.backends.base.base import BaseDatabaseWrapper

from memories.read.columns import NEVER, CandidateColumns, epoch_us, fresh_of, row_columns
from memories.read.index import NO_VECTOR, IndexView
from memories.read.scope import DISPLAY_FIELDS, STAMPED_FIELDS, ContextCandidate, uuid_text
from vault.envelope import NONCE_SIZE

_ID, _LEVEL, _TYPE, _NONCE, _SOURCE, _CONFIDENCE, _PROJECT, _UPDATED, _CITED = range(len(STAMPED_FIELDS))
_VECTOR = len(STAMPED_FIELDS)  # the vector's nonce, after the memory's own columns
_HEX_DIGITS = 32
_NOT_SHOWN = dict.fromkeys(DISPLAY_FIELDS, "")


class StampedRows:
    """Row i: candidate i, its content still sealed (``nonce``: the nonce it was sealed with)."""

    def __init__(self, rows: list[tuple[Any, ...]], db: BaseDatabaseWrapper) -> None:
        self._rows = rows
        self._zone: tzinfo = db.timezone
        # PostgreSQL's dates come as UTC; SQLite's as stored, in the connection's zone.
        self._in_utc = db.vendor == "postgresql"
        self._db = db
        self._fields: list[tuple[Any, ...]] = list(zip(*rows, strict=True)) if rows else [()] * (_VECTOR + 1)
        self._hex: np.ndarray | None = None
        self._updated: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self._rows)

    def take(self, kept: np.ndarray) -> StampedRows:
        taken = StampedRows([self._rows[i] for i in kept.tolist()], self._db)
        if self._hex is not None and self._updated is not None:
            taken._hex, taken._updated = self._hex[kept], self._updated[kept]
        return taken

    def newest_first(self) -> StampedRows:
        """The rows in the candidate statement's order: the latest update first, then the greatest id."""
        return self.take(np.lexsort((self._hex_ids(), self._updated_us()))[::-1])

    def id(self, i: int) -> str:
        return uuid_text(self._rows[i][_ID])

    def nonce(self, i: int) -> bytes:
        return bytes(self._rows[i][_NONCE])

    def entries(self, index: IndexView) -> np.ndarray:
        """Each row's entry in ``index`` if it was made from the content and vector the row holds, else -1."""
        return index.entries_of(self._hex_ids(), self._stamps())

    def _hex_ids(self) -> np.ndarray:
        if self._hex is None:
            self._hex = self._read_hex_ids()
        return self._hex

    def _updated_us(self) -> np.ndarray:
        if self._updated is None:
            self._updated = self._microseconds(self._fields[_UPDATED])
        return self._updated

    def _read_hex_ids(self) -> np.ndarray:
        ids = self._fields[_ID]
        if set(map(len, ids)) <= {_HEX_DIGITS}:
            try:
                return np.frombuffer("".join(ids).encode("ascii"), dtype=f"S{_HEX_DIGITS}")
            except UnicodeEncodeError:
                pass
        return np.array([uuid_text(value).replace("-", "").encode() for value in ids], dtype=f"S{_HEX_DIGITS}")

    def _stamps(self) -> np.ndarray:
        """Each row's stamp (``index.py``): the content's nonce, then the vector's (zeros without one). A
        row whose content holds no whole nonce gets an impossible stamp: no entry matches it."""
        count = len(self._rows)
        nonces = self._fields[_NONCE]
        vectors = [NO_VECTOR if value is None else bytes(value) for value in self._fields[_VECTOR]]
        whole = {len(value) for value in nonces} <= {NONCE_SIZE} and {len(value) for value in vectors} <= {NONCE_SIZE}
        if not whole:
            nonces = [bytes(v) if len(v) == NONCE_SIZE else b"\xff" * NONCE_SIZE for v in nonces]
            vectors = [v if len(v) == NONCE_SIZE else b"\xff" * NONCE_SIZE for v in vectors]
        content = np.frombuffer(b"".join(map(bytes, nonces)), dtype=np.uint8).reshape(count, NONCE_SIZE)
        vector = np.frombuffer(b"".join(vectors), dtype=np.uint8).reshape(count, NONCE_SIZE)
        return np.hstack((content, vector))

    def columns(self) -> CandidateColumns:
        fields = self._fields
        return row_columns(
            levels=fields[_LEVEL],
            types=fields[_TYPE],
            projects=fields[_PROJECT],
            source_types=fields[_SOURCE],
            confidences=fields[_CONFIDENCE],
            fresh=fresh_of(self._updated_us(), self._microseconds(fields[_CITED])),
        )

    def _microseconds(self, texts: tuple[str | None, ...]) -> np.ndarray:
        """Dates as µs since the epoch (``columns.NEVER`` for none): parsed by numpy when they are UTC."""
        missing = texts.count(None)
        if missing:  # numpy turns a None into NaT (NEVER) a hundred times slower than it parses a date
            found = np.full(len(texts), NEVER, dtype=np.int64)
            if missing < len(texts):
                at = [i for i, text in enumerate(texts) if text is not None]
                found[at] = self._microseconds(tuple(texts[i] for i in at))
            return found
        if self._in_utc or self._zone is UTC or getattr(self._zone, "key", None) == "UTC":
            try:
                return np.array(texts, dtype="datetime64[us]").astype(np.int64)
            except ValueError:  # not the text a DateTimeField stores: parsed one by one
                pass
        return np.fromiter((epoch_us(self._date(text)) for text in texts), dtype=np.int64, count=len(texts))

    def _date(self, text: str | None) -> datetime | None:
        """A date as the driver would have made it: aware, in the connection's zone."""
        if text is None:
            return None
        at = datetime.fromisoformat(text)
        if at.tzinfo is not None:
            return at
        return at.replace(tzinfo=UTC).astimezone(self._zone) if self._in_utc else at.replace(tzinfo=self._zone)

    def candidate(self, i: int, *, content: str = "", display: tuple[Any, ...] | None = None) -> ContextCandidate:
        """Candidate i, with its content and ``DISPLAY_FIELDS`` once opened (until then, empty)."""
        row = self._rows[i]
        shown = dict(zip(DISPLAY_FIELDS, display, strict=True)) if display is not None else _NOT_SHOWN
        return ContextCandidate(
            id=uuid_text(row[_ID]),
            level=row[_LEVEL],
            type=row[_TYPE],
            content=content,
            source_type=row[_SOURCE],
            confidence=row[_CONFIDENCE],
            project=row[_PROJECT],
            updated_at=self._date(row[_UPDATED]),  # type: ignore[arg-type]
            last_cited_at=self._date(row[_CITED]),
            **shown,
        )
