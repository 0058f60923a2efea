"""The "temporary" switch of a listed session: on is "don't save" (rule 2 refuses writes for it), off withdraws
it for what comes next — only the person, only their own session, and bad input is a 400 that says why."""

from __future__ import annotations

import pytest
from django.test import Client

from audit.models import AuditEvent
from conversations.models import Session
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import session_create
from memories.models import SessionOptOut


def login(membership) -> Client:
    client = Client()
    client.force_login(membership.user)
    return client


@pytest.fixture
def alices(world) -> Session:
    session = session_create(tenant_id=world.demo.pk, user_id="alice", app="chat", title="Offsite planning", actor="t")
    events = [NewEvent(kind="user_message", content="Let's plan the offsite in Lisbon.")]
    session_events_append(tenant_id=world.demo.pk, session_id=session.pk, events=events, actor="t")
    return Session.objects.get(pk=session.pk)


def write(world, session: Session):
    body = {
        "type": "temporary_context",
        "content": "We're planning the Lisbon offsite.",
        "scope": {"level": "session", "user_id": "alice", "session_id": str(session.pk)},
        "source": {"source_type": "user_statement"},
    }
    return world.agent_client(world.demo_key).post("/api/v1/memories/write", body, format="json").json()


def test_the_switch_is_on_the_list_and_on_the_current_conversation(world, alices):
    page = login(world.alice).get("/controls/").content.decode()
    assert f'action="/sessions/{alices.pk}/temporary"' in page
    assert page.count('role="switch"') == 2  # the row, and "This conversation" (the most recent live one)
    assert 'data-testid="current-session"' in page and 'aria-checked="false"' in page


def test_on_then_off_refuses_writes_for_it_then_takes_them_again(world, alices):
    alice = login(world.alice)
    assert alice.post(f"/sessions/{alices.pk}/temporary", {"temporary": "on"}).status_code == 302
    assert Session.objects.get(pk=alices.pk).dont_save
    assert SessionOptOut.objects.filter(user_id="alice", session_id=str(alices.pk)).exists()
    assert write(world, alices)["reason_code"] == "session_opt_out"
    assert 'aria-checked="true"' in alice.get("/controls/").content.decode()

    assert alice.post(f"/sessions/{alices.pk}/temporary", {"temporary": "off"}).status_code == 302
    session = Session.objects.get(pk=alices.pk)
    assert not session.dont_save and session.save_from_seq == session.next_seq
    assert not SessionOptOut.objects.filter(user_id="alice", session_id=str(alices.pk)).exists()
    assert write(world, alices)["decision"] == "save"
    events = list(AuditEvent.objects.filter(subject_id="alice", event__startswith="session_opt").values_list(
        "event", flat=True))  # fmt: skip
    assert events == ["session_opted_out", "session_opt_out_withdrawn"]


def test_an_agent_still_cannot_take_dont_save_back(world, alices):
    login(world.alice).post(f"/sessions/{alices.pk}/temporary", {"temporary": "on"})
    agent = world.agent_client(world.demo_key)
    response = agent.patch(f"/api/v1/sessions/{alices.pk}", {"dont_save": False}, format="json")
    assert response.status_code == 400 and "dont_save" in response.json()["fields"]
    assert Session.objects.get(pk=alices.pk).dont_save


def test_nobody_else_can_flip_it(world, alices):
    for person in (world.bob, world.erin):
        assert login(person).post(f"/sessions/{alices.pk}/temporary", {"temporary": "on"}).status_code == 404
    assert not Session.objects.get(pk=alices.pk).dont_save
    assert login(world.alice).post("/sessions/00000000-0000-0000-0000-000000000000/temporary",
                                   {"temporary": "on"}).status_code == 404  # fmt: skip


@pytest.mark.parametrize("data", [{}, {"temporary": ""}, {"temporary": "yes"}])
def test_bad_input_is_a_400_that_says_what_to_send(world, alices, data):
    response = login(world.alice).post(f"/sessions/{alices.pk}/temporary", data)
    assert response.status_code == 400
    assert "Say whether this conversation is temporary (on or off)." in response.content.decode()
    assert not Session.objects.get(pk=alices.pk).dont_save
