"""The retrieval index changes how fast a read ranks, never what it returns.

Every scenario of both read evaluation sets is computed with no index, with every owner indexed, and
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
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from config.celery import app as celery_app
from evaluation.read_eval import _build_world, _caller, _seed, load_eval_set, scenario_request
from governance.pipeline.base import Scope
from governance.vocabulary import Level
from memories import tasks
from memories.access import Caller
from memories.lifecycle.purge import purge_run
from memories.models import Memory, RetrievalIndex
from memories.read.context import ContextRequest, memory_context_compute
from memories.read.index import retrieval_indexes
from memories.read.scope import ContextScope
from memories.services import retrieval_index
from memories.services.records import NewMemory, memory_create, memory_delete, memory_update
from memories.services.retrieval_index import INDEX_MIN_MEMORIES, retrieval_index_refresh
from memories.services.subjects import subject_erase

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
pytestmark = pytest.mark.django_db


class _Reads(list):
    indexed = 0  # candidates ranked from an index, over all reads
    opened = 0  # candidates opened and counted from their text


def _reads(world: Any, scenarios: list[dict[str, Any]], now: Any) -> _Reads:
    out = _Reads()
    for scenario in scenarios:
        computed = memory_context_compute(caller=_caller(world, scenario), request=scenario_request(scenario), now=now)
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
    # Indexes for the small subjects and the shared rules as well (39 of them), not only the five large ones.
    monkeypatch.setattr(retrieval_index, "INDEX_MIN_MEMORIES", 10)
    now = timezone.now()
    world = _build_world(large_set.world, secrets.token_hex(4))
    _seed(world, large_set.memories, now)
    scenarios = large_set.scenarios
    unindexed = _reads(world, scenarios, now)
    assert unindexed.indexed == 0

    call_command("refresh_retrieval_indexes", stdout=open("/dev/null", "w"))  # noqa: SIM115
    owners = set(RetrievalIndex.objects.values_list("owner", flat=True))
    assert {"lin", "maya", "hao", "sofia", "priya", ""} <= owners
    indexed = _reads(world, scenarios, now)
    assert indexed.indexed > 0.95 * (indexed.indexed + indexed.opened)  # subjects with few memories have none
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
    assert set(retrieval_indexes(tenant_id=world.demo.pk, owners=("alice", "bob"))) == {"alice"}
    assert retrieval_indexes(tenant_id=world.acme.pk, owners=("alice",)) == {}
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


@pytest.fixture
def eager_tasks():
    """Tasks run where they are sent, as a worker would run them."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.update(task_always_eager=True)
    yield
    celery_app.conf.update(task_always_eager=before)


def test_a_read_that_finds_no_index_asks_for_one(
    world, make_memory, eager_tasks, django_capture_on_commit_callbacks
) -> None:
    _many(world, make_memory, world.demo, "alice")
    retrieval_index._requested.clear()
    with django_capture_on_commit_callbacks(execute=True):
        first = _alice_read(world)
    assert first.indexed == 0  # ranked from the rows; the refresh ran after it (an eager task here)
    assert RetrievalIndex.objects.filter(tenant=world.demo, owner="alice").exists()
    second = _alice_read(world)
    assert second.indexed == INDEX_MIN_MEMORIES
    assert [item.id for item in second.result.items] == [item.id for item in first.result.items]


def test_a_broker_that_is_down_costs_the_read_nothing(
    world, make_memory, monkeypatch, caplog, django_capture_on_commit_callbacks
) -> None:
    def refuse(*args, **kwargs):
        raise KombuOperationalError("connection refused")

    monkeypatch.setattr(tasks.retrieval_index_refresh_task, "apply_async", refuse)
    _many(world, make_memory, world.demo, "alice")
    retrieval_index._requested.clear()
    with caplog.at_level("WARNING", logger="memgov.read"), django_capture_on_commit_callbacks(execute=True):
        computed = _alice_read(world)
    assert computed.result.items and computed.indexed == 0
    assert "not queued (OperationalError)" in caplog.text and "ledger" not in caplog.text
    assert (world.demo.pk, "alice") not in retrieval_index._requested  # asked for again by the next read
