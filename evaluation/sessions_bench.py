"""The parts of ``manage.py bench_sessions``: the workload, timers, storage sizes, and the peer — the OpenAI
Agents SDK's ``SQLiteSession`` given the same items.

The workload is a chat: alternating user and assistant messages of realistic length, every fifth event also
carrying a state delta over a bounded set of keys (a step counter, the last city, a user-scope language), so
the state stays the size a real session's does and storage can be compared across session lengths.
"""

from __future__ import annotations

import asyncio
import math
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from django.db import connection

from conversations.models import Event, Session, Snapshot
from conversations.services.events import NewEvent, session_events_append

T = TypeVar("T")

CITIES = ["Beijing", "Shanghai", "Lisbon", "Porto", "Berlin", "Nairobi", "Lima", "Osaka"]
USER_TEXT = (
    "Could you look at order {n} again and tell me whether the refund needs a manual review? The invoice "
    "total and the shipping date matter most to me."
)
ASSISTANT_TEXT = (
    "I checked order {n}: the invoice total matches, the parcel shipped on time, so the refund can go through "
    "the automatic path unless finance flags it."
)


def item(n: int) -> dict[str, Any]:
    """The n-th item as the Agents SDK stores it (a Responses API input item)."""
    role = "user" if n % 2 == 0 else "assistant"
    return {"role": role, "content": (USER_TEXT if role == "user" else ASSISTANT_TEXT).format(n=n)}


def new_event(n: int) -> NewEvent:
    data = item(n)
    delta = None
    if n % 5 == 4:
        delta = {"step": n, "last_city": CITIES[n % len(CITIES)], "user:lang": "en" if n % 2 else "zh"}
    kind = "user_message" if data["role"] == "user" else "assistant_message"
    return NewEvent(kind=kind, content=data["content"], state_delta=delta)


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def timed(call: Callable[[int], object], n: int, *, warmup: int = 5) -> list[float]:
    """Milliseconds per call."""
    for i in range(warmup):
        call(-1 - i)
    samples = []
    for i in range(n):
        started = time.perf_counter_ns()
        call(i)
        samples.append((time.perf_counter_ns() - started) / 1e6)
    return samples


def fill(*, tenant_id: int, session: Session, events: int, start: int = 0, batch: int = 100) -> None:
    """Append ``events`` workload events to ``session`` in batches (untimed set-up)."""
    for first in range(start, start + events, batch):
        chunk = [new_event(n) for n in range(first, min(first + batch, start + events))]
        session_events_append(tenant_id=tenant_id, session_id=session.pk, events=chunk, actor="agent:bench")


def history_bytes() -> int:
    """Bytes the session history occupies on disk: events and snapshots with their indexes."""
    tables = [Event._meta.db_table, Snapshot._meta.db_table]
    if connection.vendor == "sqlite":
        sql = "SELECT SUM(s.pgsize) FROM dbstat s JOIN sqlite_schema m ON m.name = s.name WHERE m.tbl_name IN (%s, %s)"
    else:
        sql = "SELECT pg_total_relation_size(%s::regclass) + pg_total_relation_size(%s::regclass)"
    with connection.cursor() as cursor:
        cursor.execute(sql, tables)
        return int(cursor.fetchone()[0] or 0)


class AgentsSdkPeer:
    """``agents.memory.SQLiteSession`` on a file (WAL, as the SDK opens it), driven through its async API.

    Its calls run on a thread of their own with its own event loop, whole timed loops at a time: the caller's
    thread may already run a loop (a test runner's), and a hop per call would be timed against the peer.
    """

    def __init__(self) -> None:
        from agents.memory import SQLiteSession

        self.folder = tempfile.TemporaryDirectory(prefix="memgov-bench-")
        self.path = Path(self.folder.name) / "agents.sqlite3"
        self.factory = SQLiteSession
        self.loop: asyncio.AbstractEventLoop | None = None

    def session(self) -> Any:
        return self.factory(uuid.uuid4().hex, db_path=self.path)

    def add(self, session: Any, items: list[dict[str, Any]]) -> None:
        assert self.loop is not None, "call inside run()"
        self.loop.run_until_complete(session.add_items(items))

    def get(self, session: Any, limit: int | None = None) -> list[Any]:
        assert self.loop is not None, "call inside run()"
        return self.loop.run_until_complete(session.get_items(limit=limit))

    def run(self, work: Callable[[], T]) -> T:
        """``work()`` on the peer's thread, where ``add`` and ``get`` may be called."""
        result: list[T] = []
        errors: list[BaseException] = []

        def target() -> None:
            self.loop = asyncio.new_event_loop()
            try:
                result.append(work())
            except BaseException as exc:  # re-raised in the caller's thread
                errors.append(exc)
            finally:
                self.loop.close()
                self.loop = None

        thread = threading.Thread(target=target, name="agents-sdk-peer")
        thread.start()
        thread.join()
        if errors:
            raise errors[0]
        return result[0]

    def close(self) -> None:
        self.folder.cleanup()
