"""The floor: the same writes and reads as memgov's, done with nothing but ``sqlite3`` and ``cryptography``.

What no governed store can go below on this machine: a write looks for an equal fingerprint (a keyed HMAC),
seals the content with AES-GCM under the subject's data key (the row's id as associated data), inserts the
row and one hash-chained audit row, and commits; a read selects the subject's newest ``top_k`` rows, opens
them, appends one audit row and commits. The file is in WAL mode with ``synchronous=NORMAL``, as memgov's
SQLite database. No classification, no ranking, no policy, no scope rules: ``bench_http`` prints memgov's
service calls against these.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

SCHEMA = (
    "CREATE TABLE memory (id BLOB PRIMARY KEY, subject TEXT NOT NULL, fingerprint TEXT NOT NULL,"
    " content BLOB NOT NULL, created_at REAL NOT NULL)",
    "CREATE INDEX memory_subject ON memory (subject, created_at)",
    "CREATE INDEX memory_fingerprint ON memory (subject, fingerprint)",
    "CREATE TABLE audit (seq INTEGER PRIMARY KEY, event TEXT NOT NULL, memory_ids TEXT NOT NULL,"
    " prev_hash TEXT NOT NULL, hash TEXT NOT NULL, at REAL NOT NULL)",
)


@dataclass(frozen=True)
class FloorFigures:
    write_p50_ms: float
    write_cpu_ms: float  # mean CPU per write
    read_p50_ms: float
    read_cpu_ms: float


class FloorStore:
    """One subject-keyed store in a temporary SQLite file; ``close()`` removes it."""

    def __init__(self, *, top_k: int = 8) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="memgov-floor-")
        self.db = sqlite3.connect(Path(self._folder.name) / "floor.sqlite3", isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        for statement in SCHEMA:
            self.db.execute(statement)
        self.top_k = top_k
        self._fingerprint_key = os.urandom(32)
        self._keys: dict[str, AESGCM] = {}
        self._head = "0" * 64

    def _key(self, subject: str) -> AESGCM:
        if subject not in self._keys:
            self._keys[subject] = AESGCM(os.urandom(32))
        return self._keys[subject]

    def _audit(self, event: str, ids: list[bytes]) -> None:
        listed = ",".join(i.hex() for i in ids)
        digest = hashlib.sha256(f"{self._head}|{event}|{listed}".encode()).hexdigest()
        self.db.execute(
            "INSERT INTO audit (event, memory_ids, prev_hash, hash, at) VALUES (?, ?, ?, ?, ?)",
            (event, listed, self._head, digest, time.time()),
        )
        self._head = digest

    def write(self, subject: str, content: str) -> bool:
        """Store the content unless the subject already has it; True when a row was inserted."""
        normalized = " ".join(content.lower().split())
        fingerprint = hmac.new(self._fingerprint_key, normalized.encode(), hashlib.sha256).hexdigest()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            found = self.db.execute(
                "SELECT 1 FROM memory WHERE subject = ? AND fingerprint = ?", (subject, fingerprint)
            ).fetchone()
            if found is None:
                row_id = uuid.uuid4().bytes
                sealed = os.urandom(12)
                sealed += self._key(subject).encrypt(sealed, content.encode(), row_id)
                self.db.execute(
                    "INSERT INTO memory (id, subject, fingerprint, content, created_at) VALUES (?, ?, ?, ?, ?)",
                    (row_id, subject, fingerprint, sealed, time.time()),
                )
                self._audit("memory_write_approved", [row_id])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return found is None

    def read(self, subject: str) -> list[str]:
        """The subject's newest ``top_k`` contents, opened, with the read audited."""
        rows = self.db.execute(
            "SELECT id, content FROM memory WHERE subject = ? ORDER BY created_at DESC LIMIT ?",
            (subject, self.top_k),
        ).fetchall()
        key = self._key(subject)
        opened = [key.decrypt(sealed[:12], sealed[12:], row_id).decode() for row_id, sealed in rows]
        self.db.execute("BEGIN IMMEDIATE")
        self._audit("memory_read", [row_id for row_id, _ in rows])
        self.db.execute("COMMIT")
        return opened

    def close(self) -> None:
        self.db.close()
        self._folder.cleanup()


def _median(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[len(ordered) // 2]


def floor_figures(*, subjects: list[str], scope: int, texts: tuple[str, ...], requests: int) -> FloorFigures:
    """Seed each subject with ``scope`` memories, then time ``requests`` writes and reads over them in turn."""
    store = FloorStore()
    try:
        for subject in subjects:
            for n in range(scope):
                store.write(subject, f"Seeded memory {n} of {subject}: prefers concise answers with examples.")
        timings: dict[str, tuple[list[float], list[float]]] = {"write": ([], []), "read": ([], [])}
        for number in range(requests):
            subject = subjects[number % len(subjects)]
            for op in ("write", "read") if number % 2 else ("read", "write"):
                wall, cpu = timings[op]
                started, started_cpu = time.perf_counter(), time.process_time()
                if op == "write":
                    store.write(subject, texts[number % len(texts)].format(n=f"floor-{number}"))
                else:
                    store.read(subject)
                wall.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
        return FloorFigures(
            write_p50_ms=_median(timings["write"][0]),
            write_cpu_ms=sum(timings["write"][1]) / requests,
            read_p50_ms=_median(timings["read"][0]),
            read_cpu_ms=sum(timings["read"][1]) / requests,
        )
    finally:
        store.close()
