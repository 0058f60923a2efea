"""Envelope encryption of memory content: round trips, row binding, rotation, crypto-shredding."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest
from django.core.exceptions import FieldError, ImproperlyConfigured
from django.core.management import call_command
from django.db import connection
from sqlite_bytes import sqlite_file_bytes

from governance.vocabulary import Level
from memories.models import Memory, MemoryVersion
from memories.services.records import memory_update
from vault import DecryptionError
from vault.datakeys import forget_cached_keys
from vault.keyring import parse_keyring, reset_keyring
from vault.models import DataKey

SECRET_TEXT = "Prefers answers in Klingon with haiku summaries"


def _raw_content(memory: Memory) -> bytes:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT content FROM memories_memory WHERE id = %s",
            [memory.pk.hex if connection.vendor == "sqlite" else memory.pk],
        )
        return bytes(cursor.fetchone()[0])


def _fresh(memory: Memory) -> Memory:
    forget_cached_keys()
    return Memory.objects.get(pk=memory.pk)


def test_it_round_trips_content(world, make_memory):
    memory = make_memory(world.demo, SECRET_TEXT, user_id="alice")
    assert _fresh(memory).content == SECRET_TEXT
    assert SECRET_TEXT.encode() not in _raw_content(memory)


def test_it_refuses_to_decrypt_a_ciphertext_moved_to_another_row(world, make_memory):
    first = make_memory(world.demo, SECRET_TEXT, user_id="alice")
    second = make_memory(world.demo, "Likes tables", user_id="alice")
    blob = _raw_content(first)
    Memory.objects.filter(pk=second.pk).update(content=blob)
    with pytest.raises(DecryptionError):
        _ = _fresh(second).content


def test_it_refuses_to_decrypt_a_ciphertext_moved_to_another_field(world, make_memory):
    memory = make_memory(world.demo, SECRET_TEXT, user_id="alice")
    memory_update(memory=memory, actor="t", content="Likes lists")  # stores versions 1 and 2
    version = MemoryVersion.objects.get(memory=memory, version=2)
    MemoryVersion.objects.filter(pk=version.pk).update(change_reason=_raw_content(memory))
    forget_cached_keys()
    with pytest.raises(DecryptionError):
        _ = MemoryVersion.objects.get(pk=version.pk).change_reason


def test_it_refuses_lookups_on_encrypted_content(world):
    with pytest.raises(FieldError):
        list(Memory.objects.filter(content="x"))


def test_each_subject_has_its_own_data_key(world, make_memory):
    make_memory(world.demo, "a", user_id="alice")
    make_memory(world.demo, "b", user_id="bob")
    make_memory(world.demo, "rule", level="team", team="ai-platform", type="organization_rule")
    owners = set(DataKey.objects.filter(tenant_id=world.demo.pk).values_list("owner", flat=True))
    assert {"alice", "bob", ""} <= owners


def test_rotate_keys_rewraps_every_data_key_and_memories_still_decrypt(world, make_memory, monkeypatch):
    memory = make_memory(world.demo, SECRET_TEXT, user_id="alice")
    old = os.environ["MEMGOV_MASTER_KEY"]
    new_line = "2:" + base64.b64encode(os.urandom(32)).decode()
    monkeypatch.setattr("django.conf.settings.MEMGOV_MASTER_KEY", f"{old},{new_line}")
    call_command("rotate_keys")
    assert set(DataKey.objects.values_list("master_key_version", flat=True)) == {2}
    # Only the new key left: everything must still open.
    monkeypatch.setattr("django.conf.settings.MEMGOV_MASTER_KEY", new_line)
    reset_keyring()
    try:
        assert _fresh(memory).content == SECRET_TEXT
    finally:
        monkeypatch.undo()
        reset_keyring()


def test_erase_subject_makes_their_ciphertexts_unreadable_and_removes_their_rows(world, make_memory):
    memory = make_memory(world.demo, SECRET_TEXT, user_id="alice")
    kept = make_memory(world.demo, "Bob likes TL;DR", user_id="bob")
    blob = _raw_content(memory)
    call_command("erase_subject", tenant="demo", user_id="alice")
    assert not Memory.objects.filter(user_id="alice").exists()
    assert not MemoryVersion.objects.filter(memory_id=memory.pk).exists()
    assert not DataKey.objects.filter(tenant_id=world.demo.pk, owner="alice").exists()
    # A copy of the ciphertext (a backup) put back into a row can no longer be opened.
    Memory.objects.filter(pk=kept.pk).update(content=blob)
    with pytest.raises(DecryptionError):
        _ = _fresh(kept).content


def test_a_bad_master_key_stops_start_up_with_a_clear_message():
    with pytest.raises(ImproperlyConfigured, match="32 bytes"):
        parse_keyring("1:" + base64.b64encode(b"short").decode(), origin="MEMGOV_MASTER_KEY")
    with pytest.raises(ImproperlyConfigured, match="BASE64"):
        parse_keyring("not base64!!", origin="MEMGOV_MASTER_KEY")


def test_without_debug_a_missing_master_key_is_refused(settings):
    settings.MEMGOV_MASTER_KEY = ""
    settings.MEMGOV_MASTER_KEY_FILE_PATH = ""
    settings.DEBUG = False
    reset_keyring()
    from vault.keyring import get_keyring

    try:
        with pytest.raises(ImproperlyConfigured, match="No master key"):
            get_keyring()
    finally:
        reset_keyring()


@pytest.mark.django_db(transaction=True)
def test_the_sqlite_file_holds_no_plaintext_content(world, make_memory):
    if connection.vendor != "sqlite":
        pytest.skip("raw-file check is for the SQLite file")
    texts = [SECRET_TEXT, "记住我喜欢回答里多用表格和检查清单"]
    for text in texts:
        memory = make_memory(world.demo, text, user_id="alice")
    from memories.services.records import memory_update

    memory_update(memory=memory, actor="test", content="编辑后的内容：偏好深色主题", reason="用户说理由")
    path = Path(connection.settings_dict["NAME"])
    blobs = sqlite_file_bytes(path)
    for text in [*texts, "编辑后的内容：偏好深色主题", "用户说理由"]:
        assert text.encode() not in blobs


def test_a_key_file_alone_configures_the_master_key(settings, tmp_path, monkeypatch):
    from vault.keyring import get_keyring

    key_file = tmp_path / "master.key"
    key_file.write_text("3:" + base64.b64encode(os.urandom(32)).decode() + "\n")
    settings.MEMGOV_MASTER_KEY = ""
    settings.MEMGOV_MASTER_KEY_FILE_PATH = str(key_file)
    reset_keyring()
    try:
        assert get_keyring().current_version == 3
    finally:
        reset_keyring()


def test_settings_read_the_key_file_path_without_also_filling_the_key(monkeypatch, tmp_path):
    import subprocess
    import sys

    key_file = tmp_path / "master.key"
    key_file.write_text(base64.b64encode(os.urandom(32)).decode())
    env = {k: v for k, v in os.environ.items() if k != "MEMGOV_MASTER_KEY"}
    env.update(MEMGOV_MASTER_KEY_FILE=str(key_file), MEMGOV_SECRET_KEY="x", DJANGO_SETTINGS_MODULE="config.settings")
    code = "import django; django.setup(); from vault.keyring import get_keyring; print(get_keyring().current_version)"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.strip().endswith("1")


def test_a_moved_model_keeps_opening_what_was_sealed_under_its_old_name(world, make_memory):
    """RuleDecision moved from governance to memories: its reasons were sealed naming
    ``governance.ruledecision``, so its associated data must still name that."""
    from memories.models import RuleDecision
    from vault.datakeys import data_key_by_id
    from vault.envelope import associated_data, key_id_of, open_sealed

    rule = make_memory(world.demo, "Docs changes need a changelog entry", level=Level.TENANT, type="organization_rule")
    decision = RuleDecision.objects.create(
        tenant=world.demo, memory=rule, kind="approve", actor="user:carol", reason="Per the docs team", memory_version=1
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT reason FROM governance_ruledecision")
        blob = bytes(cursor.fetchone()[0])
    aad = associated_data(
        model="governance.ruledecision", tenant_id=world.demo.pk, record_id=str(decision.pk), field="reason"
    )
    assert open_sealed(blob, key=data_key_by_id(key_id_of(blob)), aad=aad) == "Per the docs team"
    forget_cached_keys()
    assert RuleDecision.objects.get(pk=decision.pk).reason == "Per the docs team"
