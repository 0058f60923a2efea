"""The retrieval index changes how fast a read ranks, never what it returns.

Every scenario of the large read evaluation set is computed with no index, with every subject indexed, and
with indexes gone stale (memories edited, added and deleted after the build): the items, their scores and
every part of them, their reasons and the rendered context must be the same each time.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django.utils import timezone

from evaluation.read_eval import build_world, load_eval_set, scenario_caller, scenario_request, seed_memories
from governance.pipeline.base import Scope
from governance.vocabulary import Level
from memories.access import Caller
from memories.lifecycle.purge import purge_run
from memories.lifecycle.retrieval import retrieval_run
from memories.models import Memory, RetrievalIndex, RetrievalIndexWanted
from memories.read.context import ContextRequest, memory_context_compute
from memories.read.index import index_aad, retrieval_index_of
from memories.read.scope import ContextScope
from memories.services import retrieval_index
from memories.services.records import NewMemory, memory_create, memory_delete, memory_update
from memories.services.retrieval_index import INDEX_MIN_MEMORIES, retrieval_index_refresh
from memories.services.subjects import subject_erase
from vault.datakeys import data_key_existing
from vault.envelope import seal_bytes

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
pytestmark = pytest.mark.django_db


class _Reads(list):
    indexed = 0  # candidates ranked from an index, over all reads
    opened = 0  # candidates opened and counted from their text


def _reads(world: Any, scenarios: list[dict[str, Any]], now: Any) -> _Reads:
    out = _Reads()
    for scenario in scenarios:
        computed = memory_context_compute(
            caller=scenario_caller(world, scenario), request=scenario_request(scenario), now=now
        )
        result = computed.result
        out.indexed += computed.indexed
        out.opened += computed.candidates - computed.indexed
        out.append(
            (
                scenario["id"],
                computed.candidates,
                result.rendered,
                result.omitted,
                result.ranking,
                tuple(
                    (i.id, i.score, i.relevance, i.lexical, i.semantic, i.cosine, i.matched, i.why)
                    for i in result.items
                ),
            )
        )
    return out


@pytest.fixture(scope="module")
def large_set():
    return load_eval_set(FIXTURES / "read_eval_large.jsonl")


def _differences(expected: list[tuple], got: list[tuple]) -> list[str]:
    return [want[0] for want, have in zip(expected, got, strict=True) if want != have]


def test_reads_are_the_same_from_the_index_fresh_or_stale(large_set, monkeypatch) -> None:
    # Indexes for the small subjects as well, not only the five large ones.
    monkeypatch.setattr(retrieval_index, "INDEX_MIN_MEMORIES", 10)
    now = timezone.now()
    world = build_world(large_set.world, secrets.token_hex(4))
    seed_memories(world, large_set.memories, now)
    scenarios = large_set.scenarios
    unindexed = _reads(world, scenarios, now)
    assert unindexed.indexed == 0

    call_command("refresh_retrieval_indexes", stdout=open("/dev/null", "w"))  # noqa: SIM115
    owners = set(RetrievalIndex.objects.values_list("owner", flat=True))
    assert {"lin", "maya", "hao", "sofia", "priya", "dana", "omar"} <= owners
    indexed = _reads(world, scenarios, now)
    # What is opened: the shared rules (never indexed) and the memories of subjects with fewer than 10.
    assert indexed.indexed > 0.85 * (indexed.indexed + indexed.opened)
    assert _differences(unindexed, indexed) == []

    # Stale entries: edits and new memories after the build are read from the rows, the rest from the index.
    tenant = world.tenants["northwind"]
    lin = Memory.objects.filter(tenant_id=tenant.pk, user_id="lin", status="active").order_by("id")
    edited = list(lin[:6])
    for memory in edited:
        memory_update(memory=memory, content=memory.content + " 部署 deploy ledger-sync", actor="test")
    for n in range(12):
        memory_create(
            tenant_id=tenant.pk,
            new=NewMemory(
                scope=Scope(Level.USER, user_id="lin"),
                type="user_profile",
                content=f"Deploys of ledger-sync go through Argo CD, note {n}; 部署走 Argo CD 第 {n} 条",
                source_type="explicit_user_request",
                confidence=0.9,
            ),
            actor="test",
        )
    lin_index = RetrievalIndex.objects.filter(tenant=tenant, owner="lin")
    assert lin_index.exists()  # an edit keeps the index; its entries go stale
    stale = _reads(world, scenarios, now)
    assert stale.indexed > 0 and stale.opened > indexed.opened
    RetrievalIndex.objects.all().delete()
    assert _differences(_reads(world, scenarios, now), stale) == []
    assert stale != unindexed  # the edits and new memories did change what some reads return

    # A deletion drops its owner's index in the same transaction.
    call_command("refresh_retrieval_indexes", stdout=open("/dev/null", "w"))  # noqa: SIM115
    memory_delete(memory=Memory.objects.get(pk=edited[0].pk), actor="test")
    assert not lin_index.exists()
    assert RetrievalIndex.objects.filter(tenant=tenant, owner="maya").exists()


def _many(world, make_memory, tenant, user_id: str, count: int = INDEX_MIN_MEMORIES) -> list[Memory]:
    text = "Project note {n}: the deploy of ledger-sync goes through Argo CD, 部署 {n}"
    return [make_memory(tenant, text.format(n=n), user_id=user_id) for n in range(count)]


def _alice_read(world, query: str = "how do we deploy ledger-sync"):
    caller = Caller(tenant_id=world.demo.pk, actor=f"agent:{world.demo_agent.name}", agent=world.demo_agent)
    return memory_context_compute(
        caller=caller, request=ContextRequest(scope=ContextScope(user_id="alice"), query=query)
    )


def test_an_owner_with_few_memories_gets_no_index(world, make_memory) -> None:
    _many(world, make_memory, world.demo, "alice", INDEX_MIN_MEMORIES - 1)
    assert retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice") == 0
    assert not RetrievalIndex.objects.exists()
    _many(world, make_memory, world.demo, "alice", 1)
    assert retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice") == INDEX_MIN_MEMORIES
    assert _alice_read(world).indexed == INDEX_MIN_MEMORIES


def test_an_index_opens_only_for_its_own_tenant_and_owner(world, make_memory) -> None:
    _many(world, make_memory, world.demo, "alice")
    retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice")
    sealed = RetrievalIndex.objects.get(tenant=world.demo, owner="alice").sealed
    now = timezone.now()
    RetrievalIndex.objects.create(tenant=world.demo, owner="bob", sealed=sealed, built_at=now, entries=1)
    RetrievalIndex.objects.create(tenant=world.acme, owner="alice", sealed=sealed, built_at=now, entries=1)
    assert retrieval_index_of(tenant_id=world.demo.pk, owner="alice") is not None
    assert retrieval_index_of(tenant_id=world.demo.pk, owner="bob") is None
    assert retrieval_index_of(tenant_id=world.acme.pk, owner="alice") is None
    # The content-derived index is sealed: none of the memories' words is in the stored value.
    assert b"ledger" not in bytes(sealed) and "部署".encode() not in bytes(sealed)


def test_an_erasure_removes_the_index_with_the_memories(world, make_memory) -> None:
    _many(world, make_memory, world.demo, "alice")
    retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice")
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    assert not RetrievalIndex.objects.filter(owner="alice").exists()


def test_a_purge_removes_the_index(world, make_memory) -> None:
    memories = _many(world, make_memory, world.demo, "alice", INDEX_MIN_MEMORIES + 1)
    Memory.objects.filter(pk=memories[0].pk).update(status="deleted", updated_at=timezone.now() - timedelta(days=400))
    retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice")
    assert RetrievalIndex.objects.filter(owner="alice").exists()
    purge_run(tenant_id=world.demo.pk)
    assert not Memory.objects.filter(pk=memories[0].pk).exists()
    assert not RetrievalIndex.objects.filter(owner="alice").exists()


def test_a_read_that_finds_no_index_asks_for_one_and_the_job_builds_it(world, make_memory) -> None:
    _many(world, make_memory, world.demo, "alice")
    retrieval_index._requested.clear()
    first = _alice_read(world)
    assert first.indexed == 0  # ranked from the rows, and asked for the index
    assert RetrievalIndexWanted.objects.filter(tenant=world.demo, owner="alice").exists()
    assert retrieval_run().as_dict() == {"job": "retrieval", "has_more": False, "indexed": 1}
    assert not RetrievalIndexWanted.objects.exists()
    second = _alice_read(world)
    assert second.indexed == INDEX_MIN_MEMORIES
    assert [item.id for item in second.result.items] == [item.id for item in first.result.items]


def test_shared_rules_alone_never_ask_for_an_index(world, make_memory) -> None:
    for n in range(INDEX_MIN_MEMORIES + 5):
        make_memory(world.demo, f"Tenant rule {n}: deploys need a ticket", level=Level.TENANT, type="organization_rule")
    make_memory(world.demo, "Prefers short answers", user_id="alice")
    retrieval_index._requested.clear()
    assert _alice_read(world).candidates > INDEX_MIN_MEMORIES
    assert not RetrievalIndexWanted.objects.exists()


def test_a_memory_deleted_while_its_index_is_built_is_left_out(world, make_memory, monkeypatch) -> None:
    memories = _many(world, make_memory, world.demo, "alice", INDEX_MIN_MEMORIES + 2)
    victim = memories[5]
    original = retrieval_index.text_features
    deleted: list[str] = []

    def features_then_delete(text: str):  # the build opens memories outside any transaction
        if not deleted:
            memory_delete(memory=Memory.objects.get(pk=victim.pk), actor="test")
            deleted.append(str(victim.pk))
        return original(text)

    monkeypatch.setattr(retrieval_index, "text_features", features_then_delete)
    assert retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice") == INDEX_MIN_MEMORIES + 1
    index = retrieval_index_of(tenant_id=world.demo.pk, owner="alice")
    assert index is not None and index.size == INDEX_MIN_MEMORIES + 1
    assert str(victim.pk) not in index._position


def test_an_erased_subject_gets_no_new_key_from_a_refresh(world, make_memory) -> None:
    _many(world, make_memory, world.demo, "alice")
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    assert retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice") == 0
    assert data_key_existing(tenant_id=world.demo.pk, owner="alice") is None


def test_a_damaged_index_is_not_used_and_fails_no_read(world, make_memory, caplog) -> None:
    _many(world, make_memory, world.demo, "alice")
    retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice")
    key_id, key = data_key_existing(tenant_id=world.demo.pk, owner="alice")
    aad = index_aad(tenant_id=world.demo.pk, owner="alice")
    for packed in (b"MGRI1\x05", b"MGRI1" + (2).to_bytes(4, "little") + b"{}"):
        RetrievalIndex.objects.filter(owner="alice").update(sealed=seal_bytes(packed, key_id=key_id, key=key, aad=aad))
        with caplog.at_level("WARNING", logger="memgov.read"):
            computed = _alice_read(world)
        assert computed.result.items and computed.indexed == 0
    assert "not used (" in caplog.text and "ledger" not in caplog.text


def test_a_request_the_database_cannot_take_costs_the_read_nothing(world, make_memory, monkeypatch, caplog) -> None:
    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(RetrievalIndexWanted.objects, "get_or_create", locked)
    _many(world, make_memory, world.demo, "alice")
    retrieval_index._requested.clear()
    with caplog.at_level("WARNING", logger="memgov.read"):
        computed = _alice_read(world)
    assert computed.result.items and computed.indexed == 0
    assert "not requested (OperationalError)" in caplog.text and "ledger" not in caplog.text


def test_a_process_asks_for_the_same_index_at_most_once_a_minute(world, make_memory, monkeypatch) -> None:
    _many(world, make_memory, world.demo, "alice")
    retrieval_index._requested.clear()
    asked: list[str] = []
    real = RetrievalIndexWanted.objects.get_or_create

    def counted(**kwargs):
        asked.append(kwargs["owner"])
        return real(**kwargs)

    monkeypatch.setattr(RetrievalIndexWanted.objects, "get_or_create", counted)
    clock = [1000.0]
    monkeypatch.setattr(retrieval_index.time, "monotonic", lambda: clock[0])
    for _ in range(3):
        _alice_read(world)
    assert asked == ["alice"]
    clock[0] += retrieval_index.REQUEST_EVERY_S
    _alice_read(world)
    assert asked == ["alice", "alice"]
