"""Deleting a session cascades (events, snapshots, summaries, its session/task memories), keeps what a
fork still needs, and is audited with counts; erasure of a subject covers their sessions."""

from __future__ import annotations

from session_helpers import append, fresh

from audit.models import AuditEvent
from conversations.models import Event, ScopedState, Session, Snapshot
from conversations.selectors.events import branch_events
from conversations.selectors.sessions import session_get, sessions_for_subject
from conversations.services.deletion import session_delete
from conversations.services.erasure import subject_erase
from conversations.services.events import NewEvent
from conversations.services.sessions import session_fork
from governance.vocabulary import Level, Status
from memories.models import Memory


def delete(session, **kwargs):
    return session_delete(tenant_id=session.tenant_id, session_id=session.pk, actor="test", **kwargs)


def test_deleting_a_session_removes_its_history_and_its_short_term_memories(world, make_session, make_memory):
    session = make_session()
    events = append(session, *[NewEvent(kind="state_delta", state_delta={"n": i}) for i in range(60)])
    sid = str(session.pk)
    scoped = make_memory(world.demo, "talking about the offsite", user_id="alice", level=Level.SESSION, session_id=sid,
                         type="temporary_context", source_type="user_statement")  # fmt: skip
    task = make_memory(world.demo, "step 2 done", user_id="alice", level=Level.TASK, task_id="t-1", session_id=sid,
                       type="task_state", source_type="task_state_machine")  # fmt: skip
    lasting = make_memory(world.demo, "Prefers tables", user_id="alice")
    extracted = make_memory(world.demo, "Prefers dark mode", user_id="alice")
    Memory.objects.filter(pk=extracted.pk).update(source_message_id=str(events[3].pk))
    assert Snapshot.objects.filter(event__session=session).count() == 1
    done = delete(session, forget_extracted=True)
    assert done.events_deleted == 60 and done.memories_deleted == 3 and done.events_kept_for_forks == 0
    assert not Session.objects.filter(pk=session.pk).exists()
    assert not Event.objects.filter(session_id=session.pk).exists() and not Snapshot.objects.exists()
    statuses = dict(Memory.objects.values_list("pk", "status"))
    assert statuses[scoped.pk] == statuses[task.pk] == statuses[extracted.pk] == Status.DELETED
    assert statuses[lasting.pk] == Status.ACTIVE
    row = AuditEvent.objects.get(event="session_deleted")
    assert row.details["events_deleted"] == 60 and row.details["memories_deleted"] == 3


def test_long_term_memories_stay_unless_the_person_asks(world, make_session, make_memory):
    session = make_session()
    event = append(session, "I like dark mode")[0]
    extracted = make_memory(world.demo, "Prefers dark mode", user_id="alice")
    Memory.objects.filter(pk=extracted.pk).update(source_message_id=str(event.pk))
    delete(session)
    assert Memory.objects.get(pk=extracted.pk).status == Status.ACTIVE


def test_a_deleted_session_keeps_only_what_its_forks_need_until_they_go_too(world, make_session):
    source = make_session(title="The original")
    events = append(source, *[f"message {i}" for i in range(10)])
    fork = session_fork(tenant_id=world.demo.pk, session_id=source.pk, from_event_id=events[3].pk, actor="t")
    append(fork, "in the fork")
    done = delete(source)
    assert done.events_kept_for_forks == 4 and done.events_deleted == 6
    assert session_get(tenant_id=world.demo.pk, session_id=source.pk) is None
    assert source.pk not in set(
        sessions_for_subject(tenant_id=world.demo.pk, user_id="alice").values_list("pk", flat=True)
    )
    remainder = Session.objects.get(pk=source.pk)
    assert remainder.deleted_at is not None and remainder.title is None
    fork = fresh(fork)
    assert [e.content for e in branch_events(tenant_id=world.demo.pk, leaf_id=fork.leaf_id)] == [
        "message 0", "message 1", "message 2", "message 3", "in the fork",
    ]  # fmt: skip
    delete(fork)
    assert not Session.objects.exists() and not Event.objects.exists()


def test_erasure_covers_the_subjects_sessions_and_user_state_only(world, make_session):
    mine = make_session()
    append(mine, NewEvent(kind="state_delta", state_delta={"user:lang": "zh", "app:theme": "dark", "x": 1}))
    session_fork(tenant_id=world.demo.pk, session_id=mine.pk, from_event_id=fresh(mine).leaf_id, actor="t")
    bobs = make_session("bob")
    append(bobs, "bob's words")
    erased = subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    assert erased.sessions_erased == 2 and erased.events_erased == 1
    assert list(Session.objects.values_list("user_id", flat=True)) == ["bob"]
    assert Event.objects.filter(session=bobs).count() == 1
    assert list(ScopedState.objects.values_list("user_id", flat=True)) == [""]  # the app's state stays
    reasons = set(AuditEvent.objects.filter(event="session_deleted").values_list("reason_code", flat=True))
    assert reasons == {"subject_erased"}


def test_reapplying_an_erasure_spares_the_sessions_a_reused_id_started_later(world, make_session):
    from conversations.services.erasure import subject_erasure_reapply
    from vault.erasure import tombstones

    old = make_session()
    append(old, "before the erasure")
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    tombstone = next(t for t in tombstones() if t.tenant_id == world.demo.pk and t.owner == "alice")
    newer = make_session()
    append(newer, "after the erasure, a new alice")
    assert subject_erasure_reapply(tombstone=tombstone, actor="test") is None
    assert list(Session.objects.values_list("pk", flat=True)) == [newer.pk]
    assert Event.objects.filter(session=newer).count() == 1
