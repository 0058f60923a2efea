"""A ``confirm_by: user`` confirmation is the person's: settled in their browser session, or by an agent
that names the message in which the person said yes (recorded in the audit log) — never by an agent on
its own say-so, least of all the one that proposed the inference."""

from __future__ import annotations

from audit.models import AuditEvent
from memories.models import Confirmation, Memory


def _inferred(world, key: str | None = None) -> dict:
    body = {
        "type": "user_preference",
        "content": "The user seems to prefer dark mode.",
        "scope": {"level": "user", "user_id": "alice"},
        "source": {"source_type": "agent_inference", "source_message_id": "msg-inferred"},
        "confidence": 0.7,
    }
    response = world.agent_client(key or world.demo_key).post("/api/v1/memories/write", body, format="json")
    assert response.json()["confirm_by"] == "user"
    return response.json()


def _accept_url(pending: dict) -> str:
    return f"/api/v1/confirmations/{pending['confirmation_id']}/accept"


def test_the_proposing_agent_cannot_accept_its_own_inference_without_the_persons_word(world):
    pending = _inferred(world)
    refused = world.agent_client(world.demo_key).post(_accept_url(pending), {}, format="json")
    assert refused.status_code == 400, refused.json()
    assert refused.json()["error"] == "consent_required" and "instruction_message_id" in refused.json()["fields"]
    assert Memory.objects.get(pk=pending["memory_id"]).status == "pending_confirmation"
    assert Confirmation.objects.get(pk=pending["confirmation_id"]).state == "pending"


def test_the_inference_message_itself_is_not_an_instruction_to_confirm_it(world):
    pending = _inferred(world)
    body = {"instruction_message_id": "msg-inferred"}
    refused = world.agent_client(world.demo_key).post(_accept_url(pending), body, format="json")
    assert refused.status_code == 400 and "instruction_message_id" in refused.json()["fields"]
    assert Memory.objects.get(pk=pending["memory_id"]).status == "pending_confirmation"


def test_an_agent_acting_on_the_persons_recorded_instruction_may_accept(world):
    pending = _inferred(world)
    body = {"instruction_message_id": "msg-user-said-yes"}
    accepted = world.agent_client(world.demo_key).post(_accept_url(pending), body, format="json")
    assert accepted.status_code == 200 and accepted.json()["memory_status"] == "active"
    event = AuditEvent.objects.get(event="confirmation_accepted", memory_id=pending["memory_id"])
    assert event.details["instruction_message_id"] == "msg-user-said-yes"
    assert event.details["settled_by"] == "agent_on_instruction"


def test_the_person_settles_it_in_their_session_without_an_instruction_id(world):
    pending = _inferred(world)
    accepted = world.user_client(world.alice).post(_accept_url(pending))
    assert accepted.status_code == 200 and accepted.json()["memory_status"] == "active"
    event = AuditEvent.objects.get(event="confirmation_accepted", memory_id=pending["memory_id"])
    assert event.details["settled_by"] == "person"


def test_other_people_and_tenants_still_get_404(world):
    pending = _inferred(world)
    body = {"instruction_message_id": "msg-user-said-yes"}
    assert world.agent_client(world.acme_key).post(_accept_url(pending), body, format="json").status_code == 404
    assert world.user_client(world.bob).post(_accept_url(pending)).status_code == 404
    assert world.user_client(world.erin).post(_accept_url(pending)).status_code == 404


def test_a_bad_instruction_id_names_the_field(world):
    pending = _inferred(world)
    for bad in ("", "x" * 200, "has spaces in it", 7):
        response = world.agent_client(world.demo_key).post(
            _accept_url(pending), {"instruction_message_id": bad}, format="json"
        )
        assert response.status_code == 400 and "instruction_message_id" in response.json()["fields"], bad


def test_a_command_cannot_accept_the_agents_own_inference_without_the_persons_message(world):
    pending = _inferred(world)
    agent = world.agent_client(world.demo_key)
    refused = agent.post("/api/v1/commands", {"user_id": "alice", "text": "记住这个偏好"}, "json")
    assert refused.status_code == 400 and "message_id" in refused.json()["fields"]
    assert Memory.objects.get(pk=pending["memory_id"]).status == "pending_confirmation"
    body = {"user_id": "alice", "text": "记住这个偏好", "message_id": "msg-user-cmd"}
    accepted = agent.post("/api/v1/commands", body, "json").json()
    assert accepted["executed"] and accepted["changed"] == [pending["memory_id"]]
    event = AuditEvent.objects.get(event="confirmation_accepted", memory_id=pending["memory_id"])
    assert event.details["instruction_message_id"] == "msg-user-cmd"
