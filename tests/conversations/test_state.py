"""State: three scopes merged on read, time travel from snapshots plus deltas, snapshots every N events."""

from __future__ import annotations

from session_helpers import append, fresh

from conversations.models import Event, Snapshot
from conversations.selectors.events import event_visible_to
from conversations.selectors.state import session_state_at
from conversations.services.events import NewEvent
from governance.selectors.policy import policy_current
from governance.services.policy import policy_version_create


def delta(**changes: object) -> NewEvent:
    return NewEvent(kind="state_delta", state_delta={k.replace("__", ":"): v for k, v in changes.items()})


def test_the_three_scopes_merge_and_app_and_user_state_are_shared(world, make_session):
    first, second = make_session(), make_session()
    other_user = make_session("bob")
    append(first, delta(app__theme="dark", user__lang="zh", step=1))
    assert session_state_at(session=fresh(first)) == {"app:theme": "dark", "user:lang": "zh", "step": 1}
    # The second session of alice sees her user state and the app's; not the first's own state.
    assert session_state_at(session=fresh(second)) == {"app:theme": "dark", "user:lang": "zh"}
    # bob shares the app state only.
    assert session_state_at(session=fresh(other_user)) == {"app:theme": "dark"}
    # A different app shares nothing.
    assert session_state_at(session=fresh(make_session(app="other"))) == {}


def test_null_removes_a_key(world, make_session):
    session = make_session()
    append(session, delta(a=1, b=2), delta(a=None))
    assert session_state_at(session=fresh(session)) == {"b": 2}


def test_the_state_at_any_event_is_what_it_was_then(world, make_session):
    session = make_session()
    events = append(session, *[delta(step=i, **{f"k{i % 7}": i}) for i in range(1, 131)])
    session = fresh(session)
    for index in (0, 48, 49, 50, 99, 100, 129):
        expected: dict[str, int] = {}
        for i in range(1, index + 2):
            expected["step"] = i
            expected[f"k{i % 7}"] = i
        at = event_visible_to(session=session, event_id=events[index].pk)
        assert session_state_at(session=session, at=at) == expected, index


def test_a_full_snapshot_is_stored_every_n_events_along_the_branch(world, make_session):
    session = make_session()
    append(session, *[delta(step=i) for i in range(1, 121)])
    snapshots = Snapshot.objects.filter(event__session=session)
    assert sorted(Event.objects.get(pk=s.event_id).depth for s in snapshots) == [50, 100]
    # And no state needs more than N deltas: every event is at most 49 from its base.
    assert max(Event.objects.filter(session=session).values_list("since_base", flat=True)) == 49


def test_the_interval_comes_from_the_tenant_policy(world, make_session):
    document = {**_current(world), "session_snapshot_interval": 10}
    policy_version_create(tenant=world.demo, document=document, actor="test", reason="smaller interval")
    session = make_session()
    append(session, *[delta(step=i) for i in range(1, 26)])
    depths = sorted(Event.objects.get(pk=s.event_id).depth for s in Snapshot.objects.filter(event__session=session))
    assert depths == [10, 20]
    assert session_state_at(session=fresh(session))["step"] == 25


def test_branches_have_their_own_state(world, make_session):
    session = make_session()
    one, _ = append(session, delta(city="Beijing"), delta(city="Shanghai"))
    append(session, NewEvent(kind="state_delta", state_delta={"city": "Shenzhen"}, parent_id=one.pk))
    session = fresh(session)
    assert session_state_at(session=session)["city"] == "Shenzhen"


def _current(world) -> dict:
    return dict(policy_current(tenant_id=world.demo.pk)[1])
