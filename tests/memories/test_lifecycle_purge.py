"""Purge: deleted memories lose their row, versions and confirmation after the grace period — a hard
delete that leaves no trace of the content in any table (or in the SQLite file at all)."""

from __future__ import annotations

import sqlite3
import threading
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from sqlite_bytes import sqlite_file_bytes

from audit.models import AuditEvent
from audit.verify import verify_chain
from governance.models import PolicyVersion
from governance.pipeline.base import Scope
from governance.vocabulary import Level, Status
from memories.lifecycle import purge as purge_module
from memories.lifecycle.purge import purge_run, sqlite_truncate_wal
from memories.models import Confirmation, Memory, MemoryVersion
from memories.services.records import NewMemory, memory_create, memory_delete, memory_update

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
GRACE = timedelta(days=30)  # the default policy's purge_grace_days


def _deleted_memory(tenant, content: str, *, user_id: str = "alice", edits: int = 0) -> Memory:
    memory = memory_create(
        tenant_id=tenant.pk,
        new=NewMemory(
            scope=Scope(Level.USER, user_id=user_id),
            type="user_preference",
            content=content,
            source_type="explicit_user_request",
        ),
        actor="test",
    )
    for i in range(edits):
        memory = memory_update(memory=memory, actor="test", content=f"{content} (edit {i})", reason=f"why {content}")
    return memory_delete(memory=memory, actor="test")


def test_a_deleted_memory_is_purged_only_after_the_grace_period(world):
    with time_machine.travel(T0, tick=False):
        memory = _deleted_memory(world.demo, "Prefers dark mode.", edits=2)
    with time_machine.travel(T0 + GRACE, tick=False):
        assert purge_run()["purged"] == 0  # exactly at the end of the grace period: still there
    assert Memory.objects.filter(pk=memory.pk).exists()
    with time_machine.travel(T0 + GRACE + timedelta(microseconds=1), tick=False):
        assert purge_run()["purged"] == 1
    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert not MemoryVersion.objects.filter(memory_id=memory.pk).exists()


def test_the_purge_receipt_is_in_the_audit_log(world):
    with time_machine.travel(T0, tick=False):
        memory = _deleted_memory(world.demo, "Prefers dark mode.", edits=2)
        pending = memory_create(
            tenant_id=world.demo.pk,
            new=NewMemory(
                scope=Scope(Level.USER, user_id="alice"),
                type="user_profile",
                content="Works nights.",
                source_type="user_statement",
                status=Status.PENDING_CONFIRMATION.value,
            ),
            actor="test",
        )
        Confirmation.objects.create(
            tenant=world.demo, memory=pending, confirm_by="user", requested_by="x", expires_at=T0, state="declined"
        )
        memory_delete(memory=pending, actor="test")
    with time_machine.travel(T0 + GRACE + timedelta(days=1), tick=False):
        assert purge_run()["purged"] == 2
    receipt = AuditEvent.objects.get(event="memory_purged", memory_id=memory.pk)
    assert receipt.actor == "system:lifecycle.purge"
    assert receipt.reason_code == "purge_grace_elapsed"
    assert receipt.details["versions_purged"] == 3 and receipt.details["confirmations_purged"] == 0
    uuid.UUID(receipt.details["receipt_id"])
    other = AuditEvent.objects.get(event="memory_purged", memory_id=pending.pk)
    assert other.details["confirmations_purged"] == 1
    assert not Confirmation.objects.filter(memory_id=pending.pk).exists()
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_live_archived_and_expired_memories_are_never_purged(world, make_memory):
    live = make_memory(world.demo, "live", user_id="alice")
    with time_machine.travel(T0 + timedelta(days=3650), tick=False):
        assert purge_run()["purged"] == 0
    assert Memory.objects.filter(pk=live.pk).exists()


def test_each_tenant_gets_its_own_grace_period(world):
    document = dict(PolicyVersion.objects.get(tenant=world.acme, version=1).document, purge_grace_days=1)
    PolicyVersion.objects.create(tenant=world.acme, version=2, document=document, created_by="test")
    with time_machine.travel(T0, tick=False):
        demo = _deleted_memory(world.demo, "demo pref")
        acme = _deleted_memory(world.acme, "acme pref", user_id="erin")
    with time_machine.travel(T0 + timedelta(days=2), tick=False):
        assert purge_run()["purged"] == 1
    assert Memory.objects.filter(pk=demo.pk).exists()
    assert not Memory.objects.filter(pk=acme.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_purge_that_dies_half_way_through_an_item_leaves_it_whole(world, monkeypatch):
    with time_machine.travel(T0, tick=False):
        memories = [_deleted_memory(world.demo, f"pref {i}", edits=1) for i in range(3)]
    real_audit = purge_module._audit_purge
    calls = []

    def dies_on_the_second(memory, **kwargs):
        calls.append(kwargs["memory_id"])
        if len(calls) == 2:  # versions, confirmation and row already deleted in this transaction
            raise RuntimeError("worker killed")
        real_audit(memory, **kwargs)

    monkeypatch.setattr(purge_module, "_audit_purge", dies_on_the_second)
    with time_machine.travel(T0 + GRACE + timedelta(days=1), tick=False), pytest.raises(RuntimeError):
        purge_run()
    first, second, _ = memories
    assert not Memory.objects.filter(pk=first.pk).exists()
    assert Memory.objects.filter(pk=second.pk, status=Status.DELETED).exists()
    assert MemoryVersion.objects.filter(memory_id=second.pk).count() == 2  # nothing half-deleted
    assert not AuditEvent.objects.filter(event="memory_purged", memory_id=second.pk).exists()

    monkeypatch.undo()
    with time_machine.travel(T0 + GRACE + timedelta(days=2), tick=False):
        assert purge_run()["purged"] == 2
    assert not Memory.objects.filter(pk__in=[m.pk for m in memories]).exists()
    for memory in memories:
        assert AuditEvent.objects.filter(event="memory_purged", memory_id=memory.pk).count() == 1
    assert verify_chain(tenant_id=world.demo.pk).ok


def _raw_column(table: str, column: str, where: str, value: str) -> list[bytes]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {column} FROM {table} WHERE {where} = %s", [value])
        return [bytes(row[0]) for row in cursor.fetchall() if row[0] is not None]


def _database_bytes() -> bytes:
    return sqlite_file_bytes(Path(connection.settings_dict["NAME"]))


@pytest.mark.skipif("connection.vendor != 'sqlite'", reason="reads the SQLite file itself")
@pytest.mark.django_db(transaction=True)
def test_after_a_purge_no_trace_of_the_content_is_left_in_the_database_file(world):
    with connection.cursor() as cursor:
        # As on SQLite builds without SQLITE_SECURE_DELETE (Debian's has it on): the job must turn it on.
        cursor.execute("PRAGMA secure_delete = OFF")
    canary = f"purge-canary-{uuid.uuid4().hex}"
    with time_machine.travel(T0, tick=False):
        # Words that name aspects, so the row carries comparison tags too.
        memory = _deleted_memory(world.demo, f"{canary}: answers in English, short", edits=2)
    hex_id = memory.pk.hex
    ciphertexts = _raw_column("memories_memory", "content", "id", hex_id)
    ciphertexts += _raw_column("memories_memoryversion", "content", "memory_id", hex_id)
    ciphertexts += _raw_column("memories_memoryversion", "change_reason", "memory_id", hex_id)
    stored = Memory.objects.get(pk=memory.pk)
    fingerprint, tags = stored.fingerprint.encode(), stored.aspect_tags.split()
    assert len(ciphertexts) == 1 + 3 + 2
    assert len(tags) >= 4  # two aspects, a value each
    # Fragments of each stored value: a search that can fail. Before the purge, they are all there.
    needles = [blob[-24:] for blob in ciphertexts] + [fingerprint] + [tag.encode() for tag in tags]
    data = _database_bytes()
    assert all(needle in data for needle in needles)
    assert canary.encode() not in data  # encrypted at rest, never stored in clear

    with time_machine.travel(T0 + GRACE + timedelta(days=1), tick=False):
        assert purge_run()["purged"] == 1

    data = _database_bytes()
    leftovers = [needle for needle in needles if needle in data]
    assert leftovers == []
    assert canary.encode() not in data
    assert AuditEvent.objects.filter(event="memory_purged", memory_id=memory.pk).count() == 1


@pytest.mark.skipif("connection.vendor != 'sqlite'", reason="SQLite's write-ahead log")
@pytest.mark.django_db(transaction=True)
def test_the_log_is_emptied_even_while_another_connection_checkpoints(world, make_memory):
    # Every process's background thread checkpoints once a second, and a checkpoint running elsewhere
    # makes ours answer "busy" at once (CI once caught the purge at that moment: pre-purge page images
    # stayed in the log). Here another connection checkpoints without pause, busy nine times in ten.
    path = str(connection.settings_dict["NAME"])
    stop = threading.Event()

    def checkpoint_without_pause() -> None:
        other = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
        while not stop.is_set():
            other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        other.close()

    elsewhere = threading.Thread(target=checkpoint_without_pause)
    elsewhere.start()
    try:
        for n in range(5):
            make_memory(world.demo, f"something to log {n}", user_id="alice")
            assert Path(path + "-wal").stat().st_size > 0
            assert sqlite_truncate_wal() is True
            assert Path(path + "-wal").stat().st_size == 0
    finally:
        stop.set()
        elsewhere.join()
