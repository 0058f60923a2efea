"""Crypto-shredding that shreds: after an erasure no usable key or ciphertext is left in a write-ahead log,
a free page or a backup of the content database, and a restore is undone by apply_erasures."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, connections

from memories.models import Memory
from memories.services.subjects import subject_erase
from tests.sqlite_bytes import sqlite_file_bytes
from vault.envelope import DecryptionError, associated_data, key_id_of, open_sealed, unwrap_key
from vault.erasure import tombstones
from vault.keyring import get_keyring
from vault.models import DataKey

SECRET = "Alice's allergy notes: penicillin, since 2019"


def _stored(memory: Memory) -> bytes:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT content FROM memories_memory WHERE id = %s",
            [memory.pk.hex if connection.vendor == "sqlite" else memory.pk],
        )
        return bytes(cursor.fetchone()[0])


def _wrapped_key(tenant_id: int, owner: str) -> bytes:
    return bytes(DataKey.objects.get(tenant_id=tenant_id, owner=owner).wrapped_key)


def _decrypts(blob: bytes, key_rows: list[tuple[int, int, str, bytes, int]], *, memory: Memory) -> bool:
    """Whether any of these (id, tenant, owner, wrapped key, master version) rows opens the ciphertext."""
    keyring = get_keyring()
    aad = associated_data(
        model="memories.memory", tenant_id=memory.tenant_id, record_id=str(memory.pk), field="content"
    )
    for key_id, tenant_id, owner, wrapped, version in key_rows:
        if key_id != key_id_of(blob):
            continue
        key = unwrap_key(
            bytes(wrapped), master=keyring.get(version), aad=f"memgov|datakey|{tenant_id}|{owner}".encode()
        )
        try:
            return open_sealed(blob, key=key, aad=aad) == SECRET
        except DecryptionError:
            return False
    return False


@pytest.mark.skipif("connection.vendor != 'sqlite'", reason="reads the SQLite files themselves")
@pytest.mark.django_db(transaction=True)
def test_after_an_erasure_neither_file_nor_its_wal_holds_the_key_or_the_ciphertext(world, make_memory):
    memory = make_memory(world.demo, SECRET, user_id="alice")
    needles = [_stored(memory)[-24:], _wrapped_key(world.demo.pk, "alice")]
    files = [Path(connections[alias].settings_dict["NAME"]) for alias in ("default", "keys")]
    before = b"".join(sqlite_file_bytes(path) for path in files)
    assert all(needle in before for needle in needles)  # the search can fail: both are there before

    call_command("erase_subject", tenant="demo", user_id="alice")

    after = b"".join(sqlite_file_bytes(path) for path in files)
    assert [needle for needle in needles if needle in after] == []
    for path in files:
        wal = path.with_name(path.name + "-wal")
        assert not wal.exists() or wal.stat().st_size == 0


@pytest.mark.django_db(transaction=True)
def test_the_content_database_holds_no_data_key_so_its_backup_decrypts_nothing(world, make_memory, tmp_path):
    memory = make_memory(world.demo, SECRET, user_id="alice")
    blob = _stored(memory)
    # What a backup of the content database would carry: its rows, and any data keys among them.
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        legacy = []
        if "memories_datakey" in tables:
            cursor.execute("SELECT id, tenant_id, owner, wrapped_key, master_key_version FROM memories_datakey")
            legacy = [tuple(row) for row in cursor.fetchall()]
    assert legacy == []
    live = list(DataKey.objects.values_list("id", "tenant_id", "owner", "wrapped_key", "master_key_version"))
    assert _decrypts(blob, live, memory=memory)  # the check can succeed: with the key store's key it opens
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    live = list(DataKey.objects.values_list("id", "tenant_id", "owner", "wrapped_key", "master_key_version"))
    assert not _decrypts(blob, live + legacy, memory=memory)


def test_an_erasure_is_tombstoned_in_the_key_store_and_outside_both_databases(world, make_memory, settings):
    make_memory(world.demo, SECRET, user_id="alice")
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    assert [(t.tenant_id, t.owner) for t in tombstones()] == [(world.demo.pk, "alice")]
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")  # again: still one, the newer time
    files = list(Path(settings.MEMGOV_ERASURE_TOMBSTONE_DIR).glob("*.json"))
    assert len(files) == 1 and files[0].stat().st_mode & 0o077 == 0


def test_apply_erasures_is_idempotent_and_leaves_others_alone(world, make_memory, capsys):
    make_memory(world.demo, SECRET, user_id="alice")
    bobs = make_memory(world.demo, "Bob prefers short answers", user_id="bob")
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    call_command("apply_erasures")
    assert "1 erasures on record, 0 re-applied" in capsys.readouterr().out
    assert Memory.objects.get(pk=bobs.pk).content == "Bob prefers short answers"


def test_apply_erasures_spares_what_a_reused_subject_id_gathered_after_its_erasure(world, make_memory, capsys):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    start = timezone.now()
    with time_machine.travel(start, tick=False):
        make_memory(world.demo, SECRET, user_id="alice")
        subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    with time_machine.travel(start + timedelta(days=2), tick=False):
        later = make_memory(world.demo, "Alice (a new person with the same id) prefers tables", user_id="alice")
    call_command("apply_erasures")
    assert "0 re-applied" in capsys.readouterr().out
    assert Memory.objects.get(pk=later.pk).content.startswith("Alice (a new person")
    assert DataKey.objects.filter(tenant_id=world.demo.pk, owner="alice").exists()
