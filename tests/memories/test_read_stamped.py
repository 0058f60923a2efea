"""The indexed read's rows: the same candidates, in the same order, as the candidate statement gives them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memories.access import Caller
from memories.models import Memory, RetrievalIndex
from memories.read.context import ContextRequest, memory_context_compute
from memories.read.index import retrieval_index_of
from memories.read.indexed import IndexedCandidates
from memories.read.scope import ContextScope, memory_context_candidates, read_grant_for
from memories.services.retrieval_index import INDEX_MIN_MEMORIES, retrieval_index_refresh

pytestmark = pytest.mark.django_db


def _grant(world):
    caller = Caller(tenant_id=world.demo.pk, actor=f"agent:{world.demo_agent.name}", agent=world.demo_agent)
    return read_grant_for(caller=caller, scope=ContextScope(user_id="alice")).grant


@pytest.fixture
def alice(world, make_memory):
    now = timezone.now()
    made = [make_memory(world.demo, f"Alice note {n}: deploys go through Argo CD", user_id="alice") for n in range(50)]
    # Equal dates (the id decides), microseconds apart, and whole seconds (stored without a fraction).
    for n, memory in enumerate(made):
        at = now - timedelta(seconds=n // 3, microseconds=0 if n % 5 == 0 else n % 4)
        if n % 7 == 0:
            at = at.replace(microsecond=0)
        cited = None if n % 3 else now - timedelta(days=n % 4, microseconds=n)
        Memory.objects.filter(pk=memory.pk).update(updated_at=at, last_cited_at=cited)
    make_memory(world.demo, "Security answers cite the ticket", level="tenant", type="organization_rule")
    retrieval_index_refresh(tenant_id=world.demo.pk, owner="alice")
    return made


def _order(source: IndexedCandidates) -> list[str]:
    return [source.candidate(i).id for i in range(len(source))]


def test_the_rows_come_in_the_statements_order(world, alice):
    assert len(alice) >= INDEX_MIN_MEMORIES
    grant, now = _grant(world), timezone.now()
    index = retrieval_index_of(tenant_id=world.demo.pk, owner="alice")
    assert index is not None
    source = IndexedCandidates(grant=grant, now=now, index=index, model=index.model)
    opened = memory_context_candidates(grant=grant, now=now)
    assert _order(source) == [c.id for c in opened]
    made = {c.id: c for c in opened}
    for i in range(len(source)):
        candidate = source.candidate(i)
        assert candidate.updated_at == made[candidate.id].updated_at
        assert candidate.updated_at.tzinfo == made[candidate.id].updated_at.tzinfo
        assert candidate.last_cited_at == made[candidate.id].last_cited_at


def test_citations_rank_the_same_from_the_index(world, alice, monkeypatch):
    caller = Caller(tenant_id=world.demo.pk, actor=f"agent:{world.demo_agent.name}", agent=world.demo_agent)
    request = ContextRequest(scope=ContextScope(user_id="alice"), query="how do deploys go", top_k=12)
    now = timezone.now() + timedelta(days=3)
    indexed = memory_context_compute(caller=caller, request=request, now=now)
    assert indexed.indexed > 0
    RetrievalIndex.objects.all().delete()
    opened = memory_context_compute(caller=caller, request=request, now=now)
    assert opened.indexed == 0 and opened.result == indexed.result
    monkeypatch.setattr("memories.read.ranking.FEW", 1000)  # ranked one at a time, as a few are
    assert memory_context_compute(caller=caller, request=request, now=now).result == indexed.result
    assert any(memory.last_cited_at for memory in Memory.objects.filter(user_id="alice"))


def test_over_the_limit_the_newest_are_taken(world, alice):
    grant, now = _grant(world), timezone.now()
    index = retrieval_index_of(tenant_id=world.demo.pk, owner="alice")
    source = IndexedCandidates(grant=grant, now=now, index=index, model=index.model, limit=12)
    assert _order(source) == [c.id for c in memory_context_candidates(grant=grant, now=now, limit=12)]
