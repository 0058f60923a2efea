"""What the database holds: no event content, state, title, snapshot or summary in plaintext (SQLite: the
file's bytes; PostgreSQL: the columns), and concurrent appends to one session lose, duplicate, gap or
reorder nothing."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from django.db import connection
from session_helpers import append, fresh
from sqlite_bytes import sqlite_file_bytes

from audit.verify import verify_chain
from conversations.models import Event, ScopedState, Session, Snapshot
from conversations.selectors.events import branch_events
from conversations.services.compaction import session_compact
from conversations.services.events import NewEvent, session_events_append

WORDS = ["Zanzibar-offsite-budget", "克林贡语的俳句摘要", "Valparaiso-dark-theme", "Quokka-itinerary-title"]


@pytest.fixture(autouse=True, scope="module")
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def _sealed_columns() -> list[bytes]:
    blobs: list[bytes] = []
    for model, fields in ((Event, ("content", "state_delta")), (Snapshot, ("values",)), (Session, ("title",)),
                          (ScopedState, ("values",))):  # fmt: skip
        with connection.cursor() as cursor:
            for name in fields:
                column = connection.ops.quote_name(name)
                cursor.execute(f"SELECT {column} FROM {connection.ops.quote_name(model._meta.db_table)}")
                blobs += [bytes(row[0]) for row in cursor.fetchall() if row[0] is not None]
    return blobs


@pytest.mark.django_db(transaction=True)
def test_the_database_holds_no_session_content_in_plaintext(world, make_session):
    session = make_session(title=f"Trip {WORDS[3]}")
    deltas = [
        NewEvent(kind="state_delta", state_delta={"note": f"{WORDS[2]} {i}", "user:x": WORDS[2]}) for i in range(55)
    ]
    append(session, f"We talked about the {WORDS[0]} at length.", f"用户喜欢{WORDS[1]}。", *deltas)
    event, _ = session_compact(tenant_id=world.demo.pk, session_id=session.pk, actor="test")
    assert WORDS[0] in event.content  # the summary repeats it: so it must be sealed too
    assert Snapshot.objects.exists() and ScopedState.objects.exists()
    blobs = _sealed_columns()
    assert len(blobs) > 55
    for word in WORDS:
        assert all(word.encode() not in blob for blob in blobs), word
    if connection.vendor == "sqlite":
        raw = sqlite_file_bytes(Path(connection.settings_dict["NAME"]))
        for word in WORDS:
            assert word.encode() not in raw, word


THREADS = 6
PER_THREAD = 25


@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_lose_duplicate_gap_or_reorder_nothing(world, make_session):
    session = make_session()
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            for i in range(PER_THREAD):
                batch = [NewEvent(kind="user_message", content=f"w{n}-{i}")]
                if i % 5 == 0:  # batches too, and deltas, so snapshots are written under contention
                    batch.append(NewEvent(kind="state_delta", state_delta={f"w{n}": i}))
                session_events_append(tenant_id=world.demo.pk, session_id=session.pk, events=batch, actor=f"w{n}")
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    expected = THREADS * (PER_THREAD + PER_THREAD // 5)
    stored = list(Event.objects.filter(session=session).order_by("seq"))
    assert [e.seq for e in stored] == list(range(1, expected + 1))  # no gap, no duplicate, nothing lost
    # One chain, in seq order: every event follows the one appended just before it.
    assert [e.parent_id for e in stored[1:]] == [e.pk for e in stored[:-1]]
    branch = branch_events(tenant_id=world.demo.pk, leaf_id=fresh(session).leaf_id)
    assert [e.pk for e in branch] == [e.pk for e in stored]
    for n in range(THREADS):  # each writer's messages in the order it sent them
        mine = [e.content for e in stored if e.kind == "user_message" and e.content.startswith(f"w{n}-")]
        assert mine == [f"w{n}-{i}" for i in range(PER_THREAD)]
    assert fresh(session).event_count == expected
    assert Snapshot.objects.filter(event__session=session).count() == expected // 50
    assert verify_chain(tenant_id=world.demo.pk).ok
