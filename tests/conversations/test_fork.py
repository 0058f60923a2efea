"""Forks share their prefix (nothing copied), cost the same anywhere, and leave the original untouched."""

from __future__ import annotations

import pytest
from session_helpers import append, fresh

from audit.models import AuditEvent
from conversations.models import Event
from conversations.selectors.events import branch_events
from conversations.selectors.state import session_state_at
from conversations.services.errors import SessionInputError, SessionStateError
from conversations.services.events import NewEvent, session_pop
from conversations.services.sessions import session_fork
from dbkit.ids import new_id


def fork(session, event, **kwargs):
    return session_fork(
        tenant_id=session.tenant_id, session_id=session.pk, from_event_id=event.pk, actor="test", **kwargs
    )


def contents(session) -> list[str]:
    session = fresh(session)
    return [e.content for e in branch_events(tenant_id=session.tenant_id, leaf_id=session.leaf_id)]


def test_a_fork_shares_the_prefix_without_copying_it(world, make_session):
    source = make_session(title="Trip planning")
    _one, two, _three = append(source, "one", NewEvent(kind="state_delta", state_delta={"city": "Paris"}), "three")
    stored = Event.objects.count()
    branch = fork(source, two)
    assert Event.objects.count() == stored  # nothing copied
    assert branch.parent_id == source.pk and branch.fork_event_id == two.pk and branch.title == "Trip planning"
    assert contents(branch) == ["one", None]
    assert session_state_at(session=fresh(branch)) == {"city": "Paris"}
    new = append(branch, "four, in the fork")[0]
    assert new.parent_id == two.pk and new.seq == two.seq + 1 and new.session_id == branch.pk
    assert contents(branch) == ["one", None, "four, in the fork"]
    assert contents(source) == ["one", None, "three"]  # the original is untouched
    row = AuditEvent.objects.get(event="session_forked")
    assert row.details["parent_session_id"] == str(source.pk) and row.details["from_event_id"] == str(two.pk)


def test_a_fork_of_a_fork_reads_across_both(world, make_session):
    source = make_session()
    one, _ = append(source, "one", "two")
    middle = fork(source, one)
    mid_event = append(middle, "middle")[0]
    last = fork(middle, mid_event)
    append(last, "last")
    assert contents(last) == ["one", "middle", "last"]
    # Forking from the prefix the middle session shares is allowed too.
    early = fork(middle, one)
    assert contents(early) == ["one"]


def test_a_fork_point_must_be_an_event_the_session_sees(world, make_session):
    source, other = make_session(), make_session()
    append(source, "one")
    theirs = append(other, "elsewhere")[0]
    for missing in (theirs.pk, new_id(), "not-an-id"):
        with pytest.raises(SessionInputError) as refused:
            session_fork(tenant_id=world.demo.pk, session_id=source.pk, from_event_id=missing, actor="t")
        assert refused.value.field == "from_event_id"


def test_pop_stops_at_the_fork_point(world, make_session):
    source = make_session()
    one = append(source, "one")[0]
    branch = fork(source, one)
    append(branch, "mine")
    session_pop(tenant_id=world.demo.pk, session_id=branch.pk, actor="t")
    assert fresh(branch).leaf_id == one.pk
    with pytest.raises(SessionStateError):
        session_pop(tenant_id=world.demo.pk, session_id=branch.pk, actor="t")
    assert contents(source) == ["one"]


def test_a_fork_inherits_dont_save(world, make_session):
    from memories.models import SessionOptOut

    source = make_session(dont_save=True)
    branch = fork(source, append(source, "one")[0])
    assert branch.dont_save
    assert SessionOptOut.objects.filter(session_id=str(branch.pk), user_id="alice").exists()
