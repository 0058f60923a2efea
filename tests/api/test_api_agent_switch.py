"""What an agent sees over REST once the person switched it off: an empty context, a rejected write with the
reason code ``subject_blocked_agent``, no list, no memory to get or change, no command — and everything back
once the person switches it on again. The switch is the person's: another person or tenant can't flip it."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from governance.services.tenancy import agent_key_create
from memories.models import Memory
from memories.services.agent_access import agent_access_set

CONTEXT = "/api/v1/memories/context"
WRITE = "/api/v1/memories/write"


@pytest.fixture
def tables(world, make_memory) -> Memory:
    return make_memory(world.demo, "Prefers answers as tables.", user_id="alice")


def switch_off(world, user_id: str = "alice", *, on: bool = False) -> None:
    agent_access_set(
        tenant_id=world.demo.pk, user_id=user_id, agent_id=world.demo_agent.pk, blocked=not on, actor=f"user:{user_id}"
    )


def context(client, user_id: str = "alice"):
    return client.post(CONTEXT, {"scope": {"user_id": user_id}, "query": "tables"}, format="json")


def write(client, user_id: str = "alice"):
    body = {
        "type": "user_preference",
        "content": "Remember that I like charts.",
        "scope": {"level": "user", "user_id": user_id},
        "source": {"source_type": "explicit_user_request"},
    }
    return client.post(WRITE, body, format="json")


def test_a_switched_off_agent_gets_an_empty_context_and_its_write_is_rejected(world, tables):
    agent = world.agent_client(world.demo_key)
    assert context(agent).json()["items"]
    switch_off(world)
    empty = context(agent)
    assert empty.status_code == 200 and empty.json()["items"] == [] and empty.json()["rendered"] == ""
    refused = write(agent)
    assert refused.status_code == 200, refused.json()
    assert refused.json()["decision"] == "reject" and refused.json()["reason_code"] == "subject_blocked_agent"
    assert "switched this agent off" in refused.json()["reason"]
    assert Memory.objects.filter(user_id="alice").count() == 1
    assert AuditEvent.objects.filter(event="memory_read", reason_code="subject_blocked_agent").count() == 1


def test_nor_can_it_list_get_change_or_command_that_persons_memories(world, tables):
    agent = world.agent_client(world.demo_key)
    switch_off(world)
    listed = agent.get("/api/v1/memories", {"user_id": "alice"})
    assert listed.status_code == 200 and listed.json()["count"] == 0
    assert agent.get(f"/api/v1/memories/{tables.pk}").status_code == 404
    assert agent.patch(f"/api/v1/memories/{tables.pk}", {"content": "x"}, format="json").status_code == 404
    assert agent.post(f"/api/v1/memories/{tables.pk}/pause").status_code == 404
    assert agent.delete(f"/api/v1/memories/{tables.pk}").status_code == 404
    command = agent.post("/api/v1/commands", {"user_id": "alice", "text": "list my memories"}, format="json")
    assert command.status_code == 403 and command.json()["error"] == "subject_blocked_agent"
    assert "switched this agent off" in command.json()["detail"]
    assert Memory.objects.get(pk=tables.pk).status == "active"


def test_switching_it_on_again_restores_access(world, tables):
    agent = world.agent_client(world.demo_key)
    switch_off(world)
    switch_off(world, on=True)
    assert [item["id"] for item in context(agent).json()["items"]] == [str(tables.pk)]
    assert write(agent).json()["decision"] == "save"
    assert agent.get(f"/api/v1/memories/{tables.pk}").status_code == 200


def test_only_that_agent_and_only_that_person_are_affected(world, tables, make_memory):
    make_memory(world.demo, "Prefers tables as well.", user_id="bob")
    _, other_key = agent_key_create(tenant=world.demo, name="calendar-bot", actor="test")
    switch_off(world)
    agent = world.agent_client(world.demo_key)
    assert context(agent, "bob").json()["items"]  # bob never switched it off
    assert write(agent, "bob").json()["decision"] == "save"
    assert context(world.agent_client(other_key)).json()["items"]  # another agent of the tenant
    # Another tenant's agent never saw alice's memories, switch or not.
    assert context(world.agent_client(world.acme_key)).json()["items"] == []
    # The person herself still sees her own.
    assert context(world.user_client(world.alice)).json()["items"]


def test_nor_settle_a_confirmation_of_that_persons(world):
    agent = world.agent_client(world.demo_key)
    body = {
        "type": "user_preference",
        "content": "The user seems to prefer dark mode.",
        "scope": {"level": "user", "user_id": "alice"},
        "source": {"source_type": "agent_inference", "source_message_id": "msg-inferred"},
        "confidence": 0.7,
    }
    pending = agent.post(WRITE, body, format="json").json()
    switch_off(world)
    accept = agent.post(
        f"/api/v1/confirmations/{pending['confirmation_id']}/accept",
        {"instruction_message_id": "msg-user-said-yes"},
        format="json",
    )
    assert accept.status_code == 404
    assert Memory.objects.get(pk=pending["memory_id"]).status == "pending_confirmation"
