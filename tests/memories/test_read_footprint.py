"""memories/read/footprint.py: what an agent receives for a person, priced by the agent's own read, recorded nowhere."""

from __future__ import annotations

from audit.models import AuditEvent
from governance.vocabulary import Level
from memories.access import Caller
from memories.models import Memory
from memories.read.context import ContextRequest, memory_context_build
from memories.read.footprint import context_footprint_for_person
from memories.read.scope import CANDIDATE_LIMIT, ContextScope
from memories.services.subjects import subject_set_paused


def person(world, membership=None) -> Caller:
    membership = membership or world.alice
    return Caller(
        tenant_id=membership.tenant_id,
        actor=f"user:{membership.user.username}",
        subject_id=membership.subject_id,
        membership=membership,
    )


def agent_read(world, **fields):
    """An agent's real read for alice (recorded, as every agent read is)."""
    caller = Caller(tenant_id=world.demo.pk, actor="agent:demo-agent", agent=world.demo_agent)
    return memory_context_build(caller=caller, request=ContextRequest(scope=ContextScope(user_id="alice"), **fields))


def seed(world, make_memory, count: int = 12) -> None:
    for number in range(count):
        make_memory(world.demo, f"Preference {number}: answers with tables and a short summary", user_id="alice")
    make_memory(world.demo, "Tables need captions", level=Level.TENANT, type="organization_rule")
    make_memory(world.demo, "Bob likes long answers", user_id="bob")
    make_memory(world.acme, "Acme's alice likes emoji", user_id="alice")
    make_memory(world.demo, "Docs go in docs/", user_id="alice", level=Level.PROJECT, project="docs")


def test_one_request_is_what_an_agents_read_with_no_question_injects(world, make_memory):
    seed(world, make_memory)
    footprint = context_footprint_for_person(caller=person(world), language="en")
    read = agent_read(world, language="en")
    assert (footprint.tokens, footprint.memories, footprint.token_budget) == (
        read.token_count,
        len(read.items),
        read.token_budget,
    )
    assert footprint.memories == read.top_k == 8  # capped by top_k, as the agent's read is
    assert 0 < footprint.tokens <= footprint.token_budget


def test_everything_is_every_memory_and_rule_the_scope_holds_rendered_together(world, make_memory):
    seed(world, make_memory)
    footprint = context_footprint_for_person(caller=person(world), language="en")
    everything = agent_read(world, language="en", top_k=CANDIDATE_LIMIT, standing_k=0, token_budget=10**9)
    # alice's 12 and the tenant rule; not bob's, not acme's alice's, not the project memory (none named).
    assert footprint.available == len(everything.items) == 13
    assert footprint.all_tokens == everything.token_count > footprint.tokens


def test_the_labels_language_is_priced_as_a_read_in_it_would_be(world, make_memory):
    seed(world, make_memory, count=3)
    zh = context_footprint_for_person(caller=person(world), language="zh")
    en = context_footprint_for_person(caller=person(world), language="en")
    assert zh.tokens == agent_read(world, language="zh").token_count != en.tokens


def test_pricing_records_nothing_and_counts_no_use(world, make_memory):
    seed(world, make_memory, count=3)
    events = AuditEvent.objects.count()
    context_footprint_for_person(caller=person(world), language="en")
    assert AuditEvent.objects.count() == events
    assert set(Memory.objects.values_list("use_count", flat=True)) == {0}
    assert not Memory.objects.exclude(last_used_at=None).exists()


def test_a_paused_person_gives_agents_nothing(world, make_memory):
    seed(world, make_memory, count=3)
    subject_set_paused(tenant_id=world.demo.pk, user_id="alice", paused=True, actor="test")
    footprint = context_footprint_for_person(caller=person(world), language="en")
    assert footprint.paused and (footprint.tokens, footprint.memories, footprint.all_tokens) == (0, 0, 0)
    assert agent_read(world).items == ()


def test_a_teammate_is_priced_on_their_own_memories_only(world, make_memory):
    seed(world, make_memory)
    bob = context_footprint_for_person(caller=person(world, world.bob), language="en")
    assert bob.available == 2  # his one memory and the tenant rule
    erin = context_footprint_for_person(caller=person(world, world.erin), language="en")
    assert (erin.available, erin.tokens) == (0, 0)  # acme's "alice" is not erin, and demo's rule is not acme's


def test_requests_priced_together_may_differ_in_their_limits_only(world):
    from dataclasses import replace

    import pytest

    from memories.read.context import memory_context_compute_each

    request = ContextRequest(scope=ContextScope(user_id="alice"))
    with pytest.raises(ValueError):
        memory_context_compute_each(caller=person(world), requests=(request, replace(request, query="tables")))
