"""Appending: gapless seqs, the leaf, parent pointers, kinds and bad input, the state machine on append."""

from __future__ import annotations

import pytest
from session_helpers import append, fresh

from audit.models import AuditEvent
from conversations.models import Event
from conversations.selectors.events import branch_events
from conversations.services.errors import SessionInputError, SessionStateError
from conversations.services.events import NewEvent, session_pop
from conversations.services.sessions import SessionChange, session_update


def test_appends_get_gapless_seqs_and_move_the_leaf(world, make_session):
    session = make_session()
    first = append(session, "hello there, I need help with the refund")
    more = append(session, NewEvent(kind="assistant_message", content="Sure, which order?"), "Order 123 please")
    session = fresh(session)
    assert [e.seq for e in first + more] == [1, 2, 3]
    assert session.leaf_id == more[-1].pk and session.next_seq == 4 and session.event_count == 3
    assert more[0].parent_id == first[0].pk and more[1].parent_id == more[0].pk
    assert session.state == "active"
    assert session.output_tokens > 0 and session.input_tokens > 0
    assert [e.content for e in branch_events(tenant_id=world.demo.pk, leaf_id=session.leaf_id)] == [
        "hello there, I need help with the refund",
        "Sure, which order?",
        "Order 123 please",
    ]


def test_an_append_is_audited_with_ids_and_kinds_never_content(world, make_session):
    session = make_session()
    append(session, "my secret plan is to resign", NewEvent(kind="assistant_message", content="ok"))
    row = AuditEvent.objects.get(event="session_events_appended")
    assert row.details["count"] == 2 and row.details["kinds"] == ["assistant_message", "user_message"]
    assert row.details["session_id"] == str(session.pk)
    assert "resign" not in str(row.__dict__)


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (NewEvent(kind="shouting", content="x"), "events[0].kind"),
        (NewEvent(kind="compaction", content="x"), "events[0].kind"),
        (NewEvent(kind="user_message", content="x" * 64_001), "events[0].content"),
        (NewEvent(kind="state_delta", state_delta=["not", "an", "object"]), "events[0].state_delta"),  # type: ignore[arg-type]
        (NewEvent(kind="state_delta", state_delta={"task:t1": {}}), "events[0].state_delta"),
        (NewEvent(kind="tool_call", content="x", tool_call_id="has spaces"), "events[0].tool_call_id"),
    ],
)
def test_bad_events_are_refused_naming_the_field_and_nothing_is_stored(world, make_session, event, field):
    session = make_session()
    append(session, "before")
    with pytest.raises(SessionInputError) as refused:
        append(session, "fine", event)
    assert refused.value.field == field.replace("[0]", "[1]")
    assert Event.objects.filter(session=session).count() == 1
    assert fresh(session).next_seq == 2


def test_a_parent_from_another_session_is_refused(world, make_session):
    mine, other = make_session(), make_session()
    theirs = append(other, "in the other session")[0]
    with pytest.raises(SessionInputError) as refused:
        append(mine, NewEvent(kind="user_message", content="x", parent_id=theirs.pk))
    assert refused.value.field == "events[0].parent_id"


def test_a_named_parent_makes_a_branch_and_the_leaf_follows_it(world, make_session):
    session = make_session()
    one, two = append(session, "one", "two")
    branch = append(session, NewEvent(kind="user_message", content="two, again", parent_id=one.pk))[0]
    assert branch.parent_id == one.pk and branch.seq == 3
    leaf = fresh(session).leaf_id
    assert [e.content for e in branch_events(tenant_id=world.demo.pk, leaf_id=leaf)] == ["one", "two, again"]
    assert [e.content for e in branch_events(tenant_id=world.demo.pk, leaf_id=two.pk)] == ["one", "two"]


def test_pop_moves_the_leaf_back_and_erases_nothing(world, make_session):
    session = make_session()
    one, two = append(session, "one", "two")
    left = session_pop(tenant_id=world.demo.pk, session_id=session.pk, actor="test")
    assert left.pk == two.pk
    assert fresh(session).leaf_id == one.pk
    assert Event.objects.filter(pk=two.pk).exists()
    three = append(session, "three")[0]
    assert three.parent_id == one.pk and three.seq == 3
    session_pop(tenant_id=world.demo.pk, session_id=session.pk, actor="test")
    session_pop(tenant_id=world.demo.pk, session_id=session.pk, actor="test")
    with pytest.raises(SessionStateError):
        session_pop(tenant_id=world.demo.pk, session_id=session.pk, actor="test")


def test_an_ended_session_takes_no_more_events_and_a_suspended_one_resumes(world, make_session):
    session = make_session()
    append(session, "one")
    session_update(tenant_id=world.demo.pk, session_id=session.pk, change=SessionChange(state="suspended"), actor="t")
    append(session, "back again")
    assert fresh(session).state == "active"
    session_update(tenant_id=world.demo.pk, session_id=session.pk, change=SessionChange(state="ended"), actor="t")
    with pytest.raises(SessionStateError):
        append(session, "too late")
    assert AuditEvent.objects.filter(event="session_ended").count() == 1
