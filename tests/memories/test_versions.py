"""A memory is its own first version until it changes; its history always starts at version 1."""

from __future__ import annotations

from datetime import timedelta

from memories.models import Memory, MemoryVersion
from memories.selectors import memory_versions
from memories.services.export import subject_export
from memories.services.records import memory_rollback, memory_update


def test_a_new_memory_stores_no_version_row_but_shows_its_first_version(world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    assert not MemoryVersion.objects.filter(memory=memory).exists()
    (first,) = memory_versions(memory=memory)
    assert (first.version, first.content, first.change, first.changed_by) == (1, "Prefers tables", "created", "test")
    assert first.created_at == memory.created_at


def test_the_first_change_keeps_the_first_version_then_adds_the_new_one(world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    Memory.objects.filter(pk=memory.pk).update(created_at=memory.created_at - timedelta(days=3))
    memory.refresh_from_db()
    memory_update(memory=memory, actor="user:alice", content="Prefers bullet lists")
    stored = MemoryVersion.objects.filter(memory=memory).order_by("version")
    assert [(v.version, v.content, v.change) for v in stored] == [
        (1, "Prefers tables", "created"),
        (2, "Prefers bullet lists", "edited"),
    ]
    assert stored[0].created_at == memory.created_at  # the first version dates from the memory
    memory.refresh_from_db()
    assert [v.version for v in memory_versions(memory=memory)] == [2, 1]  # no synthesized duplicate


def test_a_second_change_does_not_store_the_first_version_twice(world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    memory = memory_update(memory=memory, actor="user:alice", content="Prefers bullet lists")
    memory_update(memory=memory, actor="user:alice", content="Prefers numbered lists")
    assert list(MemoryVersion.objects.filter(memory=memory).order_by("version").values_list("version", flat=True)) == [
        1,
        2,
        3,
    ]


def test_a_row_for_version_one_from_before_is_not_duplicated(world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    legacy = MemoryVersion(tenant_id=memory.tenant_id, memory=memory, version=1, type=memory.type, change="created")
    legacy.content = "Prefers tables"
    legacy.sensitivity, legacy.changed_by = memory.sensitivity, "test"
    legacy.save()
    assert len(memory_versions(memory=memory)) == 1
    memory_update(memory=memory, actor="user:alice", content="Prefers bullet lists")
    assert MemoryVersion.objects.filter(memory=memory).count() == 2


def test_rolling_back_to_the_first_version_restores_the_original(world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    memory = memory_update(memory=memory, actor="user:alice", content="Prefers bullet lists")
    memory = memory_rollback(memory=memory, to_version=1, actor="user:alice")
    assert (memory.version, memory.content) == (3, "Prefers tables")


def test_an_export_lists_the_first_version_of_an_unchanged_memory(world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    document = subject_export(tenant_id=world.demo.pk, user_id="alice", actor="user:alice")
    (exported,) = [m for m in document["memories"] if m["id"] == str(memory.pk)]
    assert [(v["version"], v["content"]) for v in exported["versions"]] == [(1, "Prefers tables")]
