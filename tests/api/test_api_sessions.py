"""The Sessions API, part 1: create, list (resume: select / last), read, change, delete. Every test has the
other tenant's agent (erin's tenant, acme) and, where a person calls, the teammate (bob) who must see nothing."""

from __future__ import annotations

import pytest
from rest_framework.renderers import JSONRenderer

from api.sessions.serializers import SessionDetailOut, SessionOut
from audit.models import AuditEvent
from conversations.models import Session
from conversations.selectors.state import session_state_at
from memories.models import SessionOptOut


def create(client, **body):
    return client.post("/api/v1/sessions", {"app": "chat", **body}, format="json")


@pytest.fixture
def agent(world):
    return world.agent_client(world.demo_key)


@pytest.fixture
def alices(world, agent):
    response = create(agent, user_id="alice", title="Refund questions", workspace="/srv/ledger")
    assert response.status_code == 201, response.content
    return response.json()


def test_an_agent_creates_a_session_for_a_subject(world, agent):
    body = create(agent, user_id="alice", title="Refund questions").json()
    assert body["state"] == "created" and body["user_id"] == "alice" and body["leaf_id"] is None
    assert body["merged_state"] == {} and body["tokens"] == {"input": 0, "output": 0, "total": 0}
    assert Session.objects.get(pk=body["id"]).title == "Refund questions"
    assert AuditEvent.objects.filter(event="session_created").count() == 1
    # The other tenant's agent can't see it.
    assert world.agent_client(world.acme_key).get(f"/api/v1/sessions/{body['id']}").status_code == 404


def test_a_person_creates_and_lists_only_their_own(world, alices):
    alice, bob = world.user_client(world.alice), world.user_client(world.bob)
    mine = create(alice).json()
    assert mine["user_id"] == "alice"
    assert create(alice, user_id="bob").status_code == 404  # not someone else's
    ids = [s["id"] for s in alice.get("/api/v1/sessions").json()["results"]]
    assert set(ids) == {mine["id"], alices["id"]}
    assert bob.get("/api/v1/sessions").json()["results"] == []
    assert bob.get("/api/v1/sessions?user_id=alice").status_code == 404
    assert bob.get(f"/api/v1/sessions/{alices['id']}").status_code == 404
    assert world.user_client(world.erin).get(f"/api/v1/sessions/{alices['id']}").status_code == 404


def test_resume_select_and_last_most_recently_active_first(world, agent, alices):
    other = create(agent, user_id="alice", app="coder", workspace="/srv/ledger").json()
    agent.post(f"/api/v1/sessions/{alices['id']}/events", {"kind": "user_message", "content": "hi"}, format="json")
    listed = agent.get("/api/v1/sessions?user_id=alice").json()["results"]
    assert [s["id"] for s in listed] == [alices["id"], other["id"]]
    assert [s["id"] for s in agent.get("/api/v1/sessions?user_id=alice&app=coder").json()["results"]] == [other["id"]]
    last = agent.get("/api/v1/sessions?user_id=alice&workspace=/srv/ledger&last=1").json()["results"]
    assert [s["id"] for s in last] == [alices["id"]]
    assert world.agent_client(world.acme_key).get("/api/v1/sessions?user_id=alice").json()["results"] == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"user_id": "alice", "app": "has spaces"}, "app"),
        ({"user_id": "alice", "app": ""}, "app"),
        ({"user_id": "a" * 129}, "user_id"),
        ({"user_id": "alice", "title": "t" * 201}, "title"),
        ({"user_id": "alice", "dont_save": "perhaps"}, "dont_save"),
        ({}, "user_id"),  # an agent must name the subject
    ],
)
def test_bad_input_to_create_names_the_field(world, agent, body, field):
    response = agent.post("/api/v1/sessions", {"app": "chat", **body} if "app" not in body else body, format="json")
    assert response.status_code == 400
    assert field in response.json()["fields"]
    assert not Session.objects.exists()
    assert create(world.agent_client(world.acme_key), **body).status_code in (201, 400)  # no leak either way


def test_patch_moves_through_the_lifecycle_and_refuses_what_it_doesnt_allow(world, agent, alices):
    url = f"/api/v1/sessions/{alices['id']}"
    assert agent.patch(url, {"state": "suspended"}, format="json").json()["state"] == "suspended"
    assert agent.patch(url, {"state": "active"}, format="json").json()["state"] == "active"
    assert agent.patch(url, {"title": "New title"}, format="json").json()["title"] == "New title"
    ended = agent.patch(url, {"state": "ended"}, format="json").json()
    assert ended["state"] == "ended" and ended["ended_at"]
    refused = agent.patch(url, {"state": "active"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "invalid_state"
    assert agent.patch(url, {"state": "compacting"}, format="json").status_code == 400
    assert agent.patch(url, {}, format="json").status_code == 400
    assert world.agent_client(world.acme_key).patch(url, {"title": "x"}, format="json").status_code == 404
    assert world.user_client(world.bob).patch(url, {"state": "ended"}, format="json").status_code == 404


def test_dont_save_takes_effect_through_the_write_pipeline_and_stays(world, agent, alices):
    url = f"/api/v1/sessions/{alices['id']}"
    assert world.user_client(world.bob).patch(url, {"dont_save": True}, format="json").status_code == 404
    assert agent.patch(url, {"dont_save": True}, format="json").json()["dont_save"] is True
    assert SessionOptOut.objects.filter(user_id="alice", session_id=alices["id"]).exists()
    refused = agent.patch(url, {"dont_save": False}, format="json")
    assert refused.status_code == 400 and "dont_save" in refused.json()["fields"]
    decision = agent.post(
        "/api/v1/memories/write",
        {"type": "temporary_context", "content": "The user is planning a trip to Lisbon",
         "scope": {"level": "session", "user_id": "alice", "session_id": alices["id"]},
         "source": {"source_type": "user_statement"}},
        format="json",
    ).json()  # fmt: skip
    assert decision["decision"] == "reject" and decision["reason_code"] == "session_opt_out"


def test_delete_cascades_and_answers_404_afterwards(world, agent, alices):
    url = f"/api/v1/sessions/{alices['id']}"
    agent.post(f"{url}/events", {"kind": "user_message", "content": "hello"}, format="json")
    assert world.agent_client(world.acme_key).delete(url).status_code == 404
    assert world.user_client(world.bob).delete(url).status_code == 404
    assert agent.delete(f"{url}?forget_extracted=perhaps").status_code == 400
    assert world.user_client(world.alice).delete(url).status_code == 204
    assert agent.get(url).status_code == 404
    assert not Session.objects.exists()
    assert AuditEvent.objects.get(event="session_deleted").details["events_deleted"] == 1


def test_malformed_ids_are_404s(world, agent):
    assert agent.get("/api/v1/sessions/not-a-uuid").status_code == 404
    assert agent.get("/api/v1/sessions/01890000-0000-7000-8000-000000000000").status_code == 404


def _documented(session_id: str, *, with_state: bool = True) -> bytes:
    """What the serializer that documents the answer would write for the session as stored now."""
    session = Session.objects.get(pk=session_id)
    if not with_state:
        return JSONRenderer().render(SessionOut(session).data)
    session.merged_state = session_state_at(session=session)
    return JSONRenderer().render(SessionDetailOut(session).data)


@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai"])
def test_the_answers_are_what_their_documenting_serializers_write(world, agent, settings, zone):
    """The views build their answers without the serializers' per-request field copies; drf-spectacular documents
    them from the serializers, which would write the same bytes (times in the current time zone too)."""
    settings.TIME_ZONE = zone
    made = create(agent, user_id="alice", title="Refund questions", workspace="/srv/ledger")
    assert made.content == _documented(made.json()["id"])
    sid = made.json()["id"]
    events = [{"kind": "state_delta", "state_delta": {"city": "Rome"}}, {"kind": "user_message", "content": "hi"}]
    first = agent.post(f"/api/v1/sessions/{sid}/events", {"events": events}, format="json").json()["events"][0]
    fork = agent.post(f"/api/v1/sessions/{sid}/fork", {"from_event_id": first["id"]}, format="json")
    assert fork.status_code == 201 and fork.content == _documented(fork.json()["id"])
    ended = agent.patch(f"/api/v1/sessions/{sid}", {"state": "ended"}, format="json")
    assert ended.json()["ended_at"] and ended.content == _documented(sid)
    assert agent.get(f"/api/v1/sessions/{sid}").content == _documented(sid)
    for query in ("user_id=alice", "user_id=alice&last=true", "user_id=alice&last=true&offset=1"):
        page = agent.get(f"/api/v1/sessions?{query}").json()
        listed = b",".join(_documented(s["id"], with_state=False) for s in page["results"])
        assert JSONRenderer().render(page["results"]) == b"[" + listed + b"]"
    assert len(agent.get("/api/v1/sessions?user_id=alice&last=true").json()["results"]) == 1
