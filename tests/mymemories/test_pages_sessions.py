"""A person's sessions on "My memories": listed with actions, one session's history, delete — only their own."""

from __future__ import annotations

import pytest
from django.test import Client

from conversations.models import Session
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import session_create, session_fork
from governance.vocabulary import Level
from memories.models import Memory, SessionOptOut
from tests.plans import say_yes


def login(membership) -> Client:
    client = Client()
    client.force_login(membership.user)
    return client


@pytest.fixture
def alices(world):
    session = session_create(tenant_id=world.demo.pk, user_id="alice", app="chat", title="Offsite planning", actor="t")
    events = [
        NewEvent(kind="user_message", content="Let's plan the offsite in Lisbon."),
        NewEvent(kind="assistant_message", content="Happy to help with the Lisbon offsite."),
    ]
    session_events_append(tenant_id=world.demo.pk, session_id=session.pk, events=events, actor="t")
    return Session.objects.get(pk=session.pk)


def test_the_controls_page_lists_my_sessions_with_their_actions(world, alices, make_memory):
    make_memory(world.demo, "Talking about Lisbon", user_id="alice", level=Level.SESSION, session_id=str(alices.pk),
                type="temporary_context", source_type="user_statement")  # fmt: skip
    make_memory(world.demo, "From another tool", user_id="alice", level=Level.SESSION, session_id="ext-42",
                type="temporary_context", source_type="user_statement")  # fmt: skip
    session_create(tenant_id=world.demo.pk, user_id="bob", app="chat", title="Bob's secret plans", actor="t")
    page = login(world.alice).get("/controls/").content.decode()
    assert "Offsite planning" in page and "chat" in page and f'data-session="{alices.pk}"' in page
    assert "Bob&#x27;s secret plans" not in page and "Bob's secret plans" not in page
    assert 'data-session="ext-42"' in page  # a session id memgov keeps no history for: still actionable
    assert 'name="optout-session_id"' in page and 'type="hidden"' in page
    assert "Offsite planning" not in login(world.bob).get("/controls/").content.decode()
    assert "Offsite planning" not in login(world.erin).get("/controls/").content.decode()


def test_dont_save_on_a_listed_session_marks_it_and_rule_2_sees_it(world, alices):
    bob = login(world.bob)
    bobs_plan = bob.post("/controls/sessions/opt-out", {"optout-session_id": str(alices.pk)})
    assert bobs_plan.status_code == 200 and "Offsite planning" not in bobs_plan.content.decode()  # not his to see
    assert say_yes(bob, bobs_plan).status_code == 302
    assert not Session.objects.get(pk=alices.pk).dont_save  # bob's opt-out is his own id, not alice's session
    alice = login(world.alice)
    plan = alice.post("/controls/sessions/opt-out", {"optout-session_id": str(alices.pk)})
    assert "Offsite planning" in plan.content.decode() and 'data-testid="session-event-count"' in plan.content.decode()
    assert not Session.objects.get(pk=alices.pk).dont_save  # asking changes nothing
    assert say_yes(alice, plan).status_code == 302
    assert Session.objects.get(pk=alices.pk).dont_save
    assert SessionOptOut.objects.filter(user_id="alice", session_id=str(alices.pk)).exists()


def test_the_history_page_shows_my_session_only(world, alices):
    page = login(world.alice).get(f"/sessions/{alices.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Let&#x27;s plan the offsite in Lisbon." in text and "Happy to help" in text
    assert login(world.bob).get(f"/sessions/{alices.pk}/").status_code == 404
    assert login(world.erin).get(f"/sessions/{alices.pk}/").status_code == 404
    assert login(world.alice).get("/sessions/01890000-0000-7000-8000-000000000000/").status_code == 404


def test_a_fork_shows_its_shared_prefix_and_where_it_came_from(world, alices):
    fork = session_fork(tenant_id=world.demo.pk, session_id=alices.pk, from_event_id=alices.leaf_id, actor="t")
    text = login(world.alice).get(f"/sessions/{fork.pk}/").content.decode()
    assert 'data-testid="forked-from"' in text and "Happy to help" in text


def test_deleting_asks_first_then_deletes_only_mine(world, alices, make_memory):
    memory = make_memory(world.demo, "Talking about Lisbon", user_id="alice", level=Level.SESSION,
                         session_id=str(alices.pk), type="temporary_context", source_type="user_statement")  # fmt: skip
    assert login(world.bob).post(f"/sessions/{alices.pk}/delete").status_code == 404
    assert login(world.erin).get(f"/sessions/{alices.pk}/delete").status_code == 404
    alice = login(world.alice)
    asked = alice.get(f"/sessions/{alices.pk}/delete")
    assert "Delete the session" in asked.content.decode()
    assert Session.objects.filter(pk=alices.pk).exists()  # asking deletes nothing
    response = say_yes(alice, asked, follow=True)
    assert "The session was deleted: 2 events and 1 memory." in response.content.decode()
    assert not Session.objects.filter(pk=alices.pk).exists()
    assert Memory.objects.get(pk=memory.pk).status == "deleted"


def test_a_yes_to_a_deletion_plan_that_changed_since_deletes_nothing(world, alices, make_memory):
    alice = login(world.alice)
    asked = alice.get(f"/sessions/{alices.pk}/delete")
    make_memory(world.demo, "Said meanwhile", user_id="alice", level=Level.SESSION, session_id=str(alices.pk),
                type="temporary_context", source_type="user_statement")  # fmt: skip
    stale = say_yes(alice, asked)
    assert stale.status_code == 409 and "Said meanwhile" in stale.content.decode()  # what would go now
    assert Session.objects.filter(pk=alices.pk).exists()
    assert say_yes(alice, stale).status_code == 302 and not Session.objects.filter(pk=alices.pk).exists()


def test_a_yes_to_a_clear_plan_that_changed_since_deletes_nothing(world, alices, make_memory):
    first = make_memory(world.demo, "First note", user_id="alice", level=Level.SESSION, session_id=str(alices.pk),
                        type="temporary_context", source_type="user_statement")  # fmt: skip
    alice = login(world.alice)
    asked = alice.post("/controls/sessions/clear", {"clear-session_id": str(alices.pk)})
    assert "Offsite planning" in asked.content.decode() and "First note" in asked.content.decode()
    make_memory(world.demo, "Second note", user_id="alice", level=Level.SESSION, session_id=str(alices.pk),
                type="temporary_context", source_type="user_statement")  # fmt: skip
    stale = say_yes(alice, asked)
    assert stale.status_code == 409 and "Second note" in stale.content.decode()
    assert Memory.objects.get(pk=first.pk).status == "active"
