"""POST /api/v1/handoffs and GET /api/v1/handoffs/{id} with two agent keys (DESIGN.md "Handoff", §15): what
crosses, what never does, the receiving key's attempts to read beyond the handoff, and both sides' audit."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from conversations.models import Event
from governance.services.tenancy import agent_key_create
from memories.models import Memory
from tests.handoff_world import TASK


def _hand_over(h):
    body = {"session_id": h["session"]["id"], "task_id": "refund-42", "to_agent": "billing-agent"}
    return h["sender"].post("/api/v1/handoffs", body, format="json")


def test_only_the_task_state_and_the_allowed_memories_cross(world, handoff_world):
    h = handoff_world
    made = _hand_over(h)
    assert made.status_code == 201, made.json()
    received = h["receiver"].get(f"/api/v1/handoffs/{made.json()['id']}")
    assert received.status_code == 200
    body = received.json()
    assert body["task_state"]["goal"] == "Refund order 42"
    assert body["task_state"]["current_step"] == TASK["current_step"]
    assert {m["id"] for m in body["memories"]} == h["crossing"]
    assert body["from_agent"] == "demo-agent" and body["to_agent"] == "billing-agent" and body["user_id"] == "alice"
    text = str(body)
    assert "furious" not in text and "Private reasoning" not in text  # no history, no reasoning
    assert not set(h["staying"].values()) & {m["id"] for m in body["memories"]}
    assert {m["id"] for m in made.json()["memories"]} == h["crossing"]


def test_both_sides_are_audited_with_ids_only_and_the_history_records_the_handoff(world, handoff_world):
    h = handoff_world
    handoff_id = _hand_over(h).json()["id"]
    h["receiver"].get(f"/api/v1/handoffs/{handoff_id}")
    created = AuditEvent.objects.get(tenant=world.demo, event="handoff_created")
    received = AuditEvent.objects.get(tenant=world.demo, event="handoff_received")
    assert created.actor == "agent:demo-agent" and received.actor == "agent:billing-agent"
    assert set(received.details["memory_ids"]) == h["crossing"] and received.details["handoff_id"] == handoff_id
    for row in (created, received):
        assert "Refund" not in str(row.details) and "email" not in str(row.details)
    assert Event.objects.filter(session_id=h["session"]["id"], kind="handoff", task_id="refund-42").count() == 1


def test_the_receiving_key_reads_nothing_beyond_the_handoff(world, handoff_world):
    h = handoff_world
    _hand_over(h)
    receiver, session_id = h["receiver"], h["session"]["id"]
    attempts = [
        receiver.get(f"/api/v1/sessions/{session_id}"),
        receiver.get(f"/api/v1/sessions/{session_id}/events"),
        receiver.get(f"/api/v1/sessions/{session_id}/state"),
        receiver.post(f"/api/v1/sessions/{session_id}/context", {"token_budget": 500}, format="json"),
        receiver.get(f"/api/v1/tasks/refund-99?session_id={session_id}"),
        receiver.get(f"/api/v1/memories/{h['staying']['unrelated']}"),
        receiver.get("/api/v1/memories", {"user_id": "alice"}),
        receiver.post("/api/v1/memories/context", {"scope": {"user_id": "alice"}}, format="json"),
        receiver.post("/api/v1/handoffs", {"session_id": session_id, "task_id": "refund-99", "to_agent": "demo-agent"}),
    ]
    assert [r.status_code for r in attempts] == [403] * len(attempts)
    assert all(r.json()["error"] == "insufficient_scope" for r in attempts)


def test_no_other_agent_reads_the_handoff_not_even_its_sender(world, handoff_world):
    h = handoff_world
    handoff_id = _hand_over(h).json()["id"]
    _third, third_key = agent_key_create(tenant=world.demo, name="third-agent", actor="test")
    for key in (third_key, world.demo_key, world.acme_key):
        got = world.agent_client(key).get(f"/api/v1/handoffs/{handoff_id}")
        assert got.status_code == 404 and got.json()["error"] == "not_found"
    assert world.user_client(world.alice).get(f"/api/v1/handoffs/{handoff_id}").status_code == 404
    assert AuditEvent.objects.filter(event="handoff_received").count() == 0


def test_a_memory_deleted_after_the_handoff_is_not_served_and_a_deleted_session_takes_the_handoff(world, handoff_world):
    h = handoff_world
    handoff_id = _hand_over(h).json()["id"]
    preference = Memory.objects.get(pk__in=h["crossing"], type="user_preference")
    assert h["sender"].delete(f"/api/v1/memories/{preference.pk}").status_code == 204
    served = {m["id"] for m in h["receiver"].get(f"/api/v1/handoffs/{handoff_id}").json()["memories"]}
    assert served == h["crossing"] - {str(preference.pk)}
    assert h["sender"].delete(f"/api/v1/sessions/{h['session']['id']}").status_code == 204
    assert h["receiver"].get(f"/api/v1/handoffs/{handoff_id}").status_code == 404


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"to_agent": "nobody"}, "to_agent"),
        ({"to_agent": "acme-agent"}, "to_agent"),  # another tenant's key: unknown here
        ({"to_agent": "demo-agent"}, "to_agent"),  # itself
        ({"task_id": "never-started"}, "task_id"),
        ({"task_id": "../x"}, "task_id"),
        ({"session_id": "not-a-uuid"}, "session_id"),
        ({"to_agent": None}, "to_agent"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_hands_nothing_over(world, handoff_world, change, field):
    h = handoff_world
    body = {"session_id": h["session"]["id"], "task_id": "refund-42", "to_agent": "billing-agent", **change}
    answer = h["sender"].post("/api/v1/handoffs", body, format="json")
    assert answer.status_code == 400 and field in answer.json()["fields"], answer.json()
    assert not AuditEvent.objects.filter(event="handoff_created").exists()


def test_the_other_tenants_agent_cannot_hand_over_this_tenants_session(world, handoff_world):
    h = handoff_world
    body = {"session_id": h["session"]["id"], "task_id": "refund-42", "to_agent": "acme-agent"}
    answer = world.agent_client(world.acme_key).post("/api/v1/handoffs", body, format="json")
    assert answer.status_code == 404
    assert not AuditEvent.objects.filter(event="handoff_created").exists()


def test_a_receiver_the_person_switched_off_gets_the_task_state_and_none_of_their_memories(world, handoff_world):
    from governance.models import AgentClient
    from memories.services.agent_access import agent_access_set

    h = handoff_world
    made = _hand_over(h)
    receiver = AgentClient.objects.get(tenant=world.demo, name="billing-agent")
    agent_access_set(tenant_id=world.demo.pk, user_id="alice", agent_id=receiver.pk, blocked=True, actor="user:alice")
    body = h["receiver"].get(f"/api/v1/handoffs/{made.json()['id']}").json()
    assert body["task_state"]["goal"] == "Refund order 42"
    assert body["memories"] == []
