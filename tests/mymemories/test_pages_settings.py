"""Pause all memory, "don't save this session", clear a session — each only ever for the person themself."""

from __future__ import annotations

from django.test import Client

from audit.models import AuditEvent
from governance.vocabulary import Level
from memories.models import Memory, SessionOptOut, Subject
from memories.selectors import session_is_opted_out, subject_is_paused
from tests.plans import say_yes


def _login(membership) -> Client:
    client = Client()
    client.force_login(membership.user)
    return client


def test_pause_all_and_resume(world):
    alice = _login(world.alice)
    assert alice.post("/controls/pause").status_code == 302
    assert subject_is_paused(tenant_id=world.demo.pk, user_id="alice")
    assert not subject_is_paused(tenant_id=world.demo.pk, user_id="bob")
    page = alice.get("/controls/").content.decode()
    assert 'data-testid="paused-banner"' in page and "Resume memory" in page
    assert 'data-testid="paused-banner"' in alice.get("/").content.decode()  # on every page
    alice.post("/controls/resume")
    assert not subject_is_paused(tenant_id=world.demo.pk, user_id="alice")
    events = AuditEvent.objects.filter(subject_id="alice", event__startswith="subject_")
    assert list(events.values_list("event", flat=True)) == [
        "subject_paused",
        "subject_resumed",
    ]


def test_dont_save_this_session(world):
    alice = _login(world.alice)
    asked = alice.post("/controls/sessions/opt-out", {"optout-session_id": "sess-7"})
    assert asked.status_code == 200 and "sess-7" in asked.content.decode()
    assert not session_is_opted_out(tenant_id=world.demo.pk, user_id="alice", session_id="sess-7")  # asked only
    assert say_yes(alice, asked).status_code == 302
    assert session_is_opted_out(tenant_id=world.demo.pk, user_id="alice", session_id="sess-7")
    assert "sess-7" in alice.get("/controls/").content.decode()
    # Empty or over-long session ids are a form error, not a 500.
    assert alice.post("/controls/sessions/opt-out", {"optout-session_id": ""}).status_code == 400
    assert alice.post("/controls/sessions/opt-out", {"optout-session_id": "s" * 200}).status_code == 400
    assert SessionOptOut.objects.count() == 1


def test_clear_a_session_shows_what_goes_then_deletes_only_that_session(world, make_memory):
    in_session = make_memory(
        world.demo, "Offsite budget", user_id="alice", type="temporary_context", level=Level.SESSION, session_id="s1"
    )
    other_session = make_memory(
        world.demo, "Other talk", user_id="alice", type="temporary_context", level=Level.SESSION, session_id="s2"
    )
    bobs = make_memory(
        world.demo, "Bob's note", user_id="bob", type="temporary_context", level=Level.SESSION, session_id="s1"
    )
    # Out of the list and out of the plan, so out of what a yes deletes: it stays in history.
    archived = make_memory(
        world.demo, "Old offsite plan", user_id="alice", type="temporary_context", level=Level.SESSION, session_id="s1"
    )
    Memory.objects.filter(pk=archived.pk).update(status="archived")
    alice = _login(world.alice)
    preview = alice.post("/controls/sessions/clear", {"clear-session_id": "s1"})
    assert preview.status_code == 200 and "Offsite budget" in preview.content.decode()
    assert "Bob&#x27;s note" not in preview.content.decode() and "Old offsite plan" not in preview.content.decode()
    in_session.refresh_from_db()
    assert in_session.status == "active"  # nothing deleted before the confirmation
    say_yes(alice, preview)
    statuses = dict(Memory.objects.values_list("id", "status"))
    assert statuses == {
        in_session.id: "deleted",
        other_session.id: "active",
        bobs.id: "active",
        archived.id: "archived",
    }


def test_a_teammate_clearing_the_same_session_id_touches_only_their_own(world, make_memory):
    alices = make_memory(
        world.demo, "Alice's note", user_id="alice", type="temporary_context", level=Level.SESSION, session_id="s1"
    )
    _login(world.bob).post("/controls/sessions/clear", {"clear-session_id": "s1", "confirm": "on"})
    _login(world.erin).post("/controls/pause")
    alices.refresh_from_db()
    assert alices.status == "active"
    assert not Subject.objects.filter(tenant=world.demo, user_id="alice", memory_paused=True).exists()
