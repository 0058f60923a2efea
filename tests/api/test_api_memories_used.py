"""Citations: the context API gives each item a citation id; POST /memories/used counts the uses an answer
reports — once each, only for the caller's tenant (and, for a person, their own reads)."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from governance.services.tenancy import agent_key_create
from memories.agent_selectors import agent_activity_for_subject
from memories.models import ContextRead, Memory
from memories.services.agent_access import agent_access_set

URL = "/api/v1/memories/used"


@pytest.fixture
def cited(world, make_memory):
    make_memory(world.demo, "User prefers answers in Chinese.", user_id="alice")
    agent = world.agent_client(world.demo_key)
    response = agent.post(
        "/api/v1/memories/context", {"scope": {"user_id": "alice"}, "query": "Chinese answers"}, format="json"
    )
    assert response.status_code == 200, response.content
    items = response.json()["items"]
    assert items and all(item["citation_id"] for item in items)
    return agent, items


def test_a_reported_use_is_counted_once(world, cited):
    agent, items = cited
    body = {"citation_ids": [items[0]["citation_id"]]}
    first = agent.post(URL, body, format="json")
    assert first.status_code == 200 and first.json() == {"recorded": 1, "repeated": 0}
    again = agent.post(URL, body, format="json")
    assert again.json() == {"recorded": 0, "repeated": 1}
    memory = Memory.objects.get(pk=items[0]["id"])
    assert memory.cited_count == 1 and memory.last_cited_at is not None


def test_another_tenant_cannot_report_uses_of_these_citations(world, cited):
    _, items = cited
    acme = world.agent_client(world.acme_key)
    response = acme.post(URL, {"citation_ids": [items[0]["citation_id"]]}, format="json")
    assert response.status_code == 400 and "citation_ids[0]" in str(response.json())
    assert Memory.objects.get(pk=items[0]["id"]).cited_count == 0


def test_a_person_reports_only_their_own_reads(world, cited):
    _, items = cited
    response = world.user_client(world.bob).post(URL, {"citation_ids": [items[0]["citation_id"]]}, format="json")
    assert response.status_code == 400
    assert Memory.objects.get(pk=items[0]["id"]).cited_count == 0
    mine = world.user_client(world.alice).post(URL, {"citation_ids": [items[0]["citation_id"]]}, format="json")
    assert mine.status_code == 200 and mine.json()["recorded"] == 1


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "citation_ids"),
        ({"citation_ids": []}, "citation_ids"),
        ({"citation_ids": "abc"}, "citation_ids"),
        ({"citation_ids": ["not-a-citation"]}, "citation_ids[0]"),
        ({"citation_ids": ["0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b.x"]}, "citation_ids[0]"),
        ({"citation_ids": ["0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b.0"]}, "citation_ids[0]"),
    ],
)
def test_bad_input_names_the_field_and_counts_nothing(world, cited, body, field):
    agent, items = cited
    response = agent.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert field in str(response.json())
    assert Memory.objects.get(pk=items[0]["id"]).cited_count == 0


def test_an_index_past_the_read_is_refused_and_nothing_of_the_batch_is_counted(world, cited):
    agent, items = cited
    read_id = items[0]["citation_id"].rsplit(".", 1)[0]
    body = {"citation_ids": [items[0]["citation_id"], f"{read_id}.{len(items)}"]}
    response = agent.post(URL, body, format="json")
    assert response.status_code == 400 and "citation_ids[1]" in str(response.json())
    assert Memory.objects.get(pk=items[0]["id"]).cited_count == 0


def test_a_preview_has_no_citations(world, make_memory):
    from memories.access import Caller
    from memories.read.context import ContextRequest, memory_context_build
    from memories.read.scope import ContextScope

    make_memory(world.demo, "User prefers answers in Chinese.", user_id="alice")
    caller = Caller(tenant_id=world.demo.pk, actor="user:alice", subject_id="alice", membership=world.alice)
    result = memory_context_build(
        caller=caller, request=ContextRequest(scope=ContextScope(user_id="alice"), query="Chinese"), preview=True
    )
    assert result.items and not any(item.citation_id for item in result.items)


def test_a_used_memory_ranks_as_recent_in_the_next_read(world, make_memory):
    from datetime import timedelta

    from django.utils import timezone

    for text in ("User prefers answers in Chinese.", "User prefers Chinese answers with a table."):
        make_memory(world.demo, text, user_id="alice")
    Memory.objects.filter(tenant=world.demo, user_id="alice").update(updated_at=timezone.now() - timedelta(days=60))
    agent = world.agent_client(world.demo_key)
    read = {"scope": {"user_id": "alice"}, "query": "Chinese answers"}
    before = agent.post("/api/v1/memories/context", read, format="json").json()["items"]
    assert len(before) == 2 and all(item["score_parts"]["recency"] < 0.3 for item in before)
    last = before[-1]
    assert agent.post(URL, {"citation_ids": [last["citation_id"]]}, format="json").status_code == 200
    after = agent.post("/api/v1/memories/context", read, format="json").json()["items"]
    parts = {item["id"]: item["score_parts"]["recency"] for item in after}
    assert parts[last["id"]] > 0.99 and parts[before[0]["id"]] < 0.3
    scores = {item["id"]: item["score"] for item in after}
    assert scores[last["id"]] > last["score"] + 0.1  # the use lifted it by recency's weight (0.15) times ~0.75
    assert scores[before[0]["id"]] == pytest.approx(before[0]["score"], abs=1e-3)  # the other one is unchanged


def switch_off(world, user_id: str = "alice") -> None:
    agent_access_set(
        tenant_id=world.demo.pk, user_id=user_id, agent_id=world.demo_agent.pk, blocked=True, actor=f"user:{user_id}"
    )


def test_a_use_reported_by_an_agent_the_person_switched_off_is_refused_and_audited(world, cited):
    agent, items = cited
    switch_off(world)
    before = AuditEvent.objects.count()
    response = agent.post(URL, {"citation_ids": [items[0]["citation_id"]]}, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["reason_code"] == "subject_blocked_agent"
    assert "switched this agent off" in response.json()["detail"]
    assert Memory.objects.get(pk=items[0]["id"]).cited_count == 0
    assert ContextRead.objects.get(pk=items[0]["citation_id"].rsplit(".", 1)[0]).used == []
    refusal = AuditEvent.objects.get(event="memory_read", reason_code="subject_blocked_agent")
    assert AuditEvent.objects.count() == before + 1  # the refusal only: no use was recorded
    assert (refusal.subject_id, refusal.agent_version) == ("alice", world.demo_agent.name)
    assert refusal.details == {"read_ids": [items[0]["citation_id"].rsplit(".", 1)[0]]}  # ids only
    # The person's agents page counts it as a refused use.
    activity = {a.agent.pk: a for a in agent_activity_for_subject(tenant_id=world.demo.pk, user_id="alice")}
    assert activity[world.demo_agent.pk].refused == 1


def test_a_batch_with_one_switched_off_person_counts_nothing(world, cited, make_memory):
    agent, items = cited
    make_memory(world.demo, "Bob prefers answers in Chinese too.", user_id="bob")
    bobs = agent.post(
        "/api/v1/memories/context", {"scope": {"user_id": "bob"}, "query": "Chinese answers"}, format="json"
    ).json()["items"]
    switch_off(world)  # alice only
    body = {"citation_ids": [bobs[0]["citation_id"], items[0]["citation_id"]]}
    assert agent.post(URL, body, format="json").status_code == 403
    assert Memory.objects.get(pk=bobs[0]["id"]).cited_count == 0
    # bob's alone is still counted: the switch is alice's.
    alone = agent.post(URL, {"citation_ids": [bobs[0]["citation_id"]]}, format="json")
    assert alone.status_code == 200 and alone.json()["recorded"] == 1


def test_the_switch_is_not_revealed_to_another_tenant_and_leaves_the_person_and_other_agents_alone(world, cited):
    _, items = cited
    switch_off(world)
    acme = world.agent_client(world.acme_key).post(URL, {"citation_ids": [items[0]["citation_id"]]}, format="json")
    assert acme.status_code == 400 and "subject_blocked_agent" not in str(acme.json())
    assert not AuditEvent.objects.filter(tenant=world.acme, reason_code="subject_blocked_agent").exists()
    _, other_key = agent_key_create(tenant=world.demo, name="calendar-bot", actor="test")
    other = world.agent_client(other_key).post(URL, {"citation_ids": [items[0]["citation_id"]]}, format="json")
    assert other.status_code == 200 and other.json()["recorded"] == 1  # another agent of the tenant
    mine = world.user_client(world.alice).post(URL, {"citation_ids": [items[0]["citation_id"]]}, format="json")
    assert mine.status_code == 200 and mine.json() == {"recorded": 0, "repeated": 1}
