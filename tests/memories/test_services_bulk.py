"""memories/services/bulk.py: the plan of a bulk change, and its application — one service call and one
audit event per memory, exactly as one by one, all in one transaction."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from memories.models import Memory
from memories.services.bulk import BulkAction, memory_bulk_apply, memory_bulk_plan
from memories.services.records import MemoryStateError, memory_delete, memory_pause, memory_resume

SINGLE = {BulkAction.DELETE: memory_delete, BulkAction.PAUSE: memory_pause, BulkAction.RESUME: memory_resume}


def _events(memory_ids) -> list[tuple]:
    """The audit rows of these memories, without what differs between any two writes (ids, times, hashes)."""
    rows = AuditEvent.objects.filter(memory_id__in=list(memory_ids)).order_by("seq")
    return [(row.event, row.actor, row.memory_type, row.scope, row.subject_id, row.details) for row in rows]


def test_the_plan_names_what_changes_and_what_is_left_as_it_is(world, make_memory):
    active = make_memory(world.demo, "Likes tables", user_id="alice")
    paused = memory_pause(memory=make_memory(world.demo, "Likes charts", user_id="alice"), actor="test")
    pause = memory_bulk_plan(memories=[active, paused], action=BulkAction.PAUSE)
    assert (pause.changes, pause.unchanged) == ((active,), (paused,))
    resume = memory_bulk_plan(memories=[active, paused], action=BulkAction.RESUME)
    assert (resume.changes, resume.unchanged) == ((paused,), (active,))
    delete = memory_bulk_plan(memories=[active, paused], action=BulkAction.DELETE)
    assert (delete.changes, delete.unchanged) == ((active, paused), ())


@pytest.mark.parametrize("action", list(BulkAction))
def test_each_memory_is_audited_as_its_one_memory_service_audits_it(world, make_memory, action):
    """Bulk on two memories writes what the single-memory service writes for each, one event apiece."""
    one_by_one = [make_memory(world.demo, f"One by one {n}", user_id="alice") for n in range(2)]
    together = [make_memory(world.demo, f"Together {n}", user_id="alice") for n in range(2)]
    if action == BulkAction.RESUME:
        one_by_one = [memory_pause(memory=m, actor="test") for m in one_by_one]
        together = [memory_pause(memory=m, actor="test") for m in together]
    first_seq = AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first()
    single = {BulkAction.DELETE: memory_delete, BulkAction.PAUSE: memory_pause, BulkAction.RESUME: memory_resume}[
        action
    ]
    for memory in one_by_one:
        single(memory=memory, actor="user:alice")
    changed = memory_bulk_apply(memories=together, action=action, actor="user:alice")
    assert [m.pk for m in changed] == [m.pk for m in together]
    after = AuditEvent.objects.filter(seq__gt=first_seq)
    singles = [e for e in _events(m.pk for m in one_by_one) if e[1] == "user:alice"]
    bulk = [e for e in _events(m.pk for m in together) if e[1] == "user:alice"]
    assert len(bulk) == 2 and bulk == singles
    assert after.count() == 4
    status = {"delete": "deleted", "pause": "paused", "resume": "active"}[action]
    assert set(Memory.objects.filter(pk__in=[m.pk for m in together]).values_list("status", flat=True)) == {status}


def test_one_memory_that_cannot_change_leaves_all_of_them_as_they_were(world, make_memory):
    """One transaction: the first memory's pause is rolled back with the second's refusal."""
    first = make_memory(world.demo, "Likes tables", user_id="alice")
    second = make_memory(world.demo, "Likes charts", user_id="alice")
    stale = Memory.objects.get(pk=second.pk)  # loaded while active, then deleted elsewhere (another tab)
    memory_delete(memory=second, actor="test")
    events = AuditEvent.objects.count()
    with pytest.raises(MemoryStateError):
        memory_bulk_apply(memories=[first, stale], action=BulkAction.PAUSE, actor="user:alice")
    assert Memory.objects.get(pk=first.pk).status == "active"
    assert AuditEvent.objects.count() == events


def test_a_memory_the_action_does_not_change_is_refused_not_skipped(world, make_memory):
    active = make_memory(world.demo, "Likes tables", user_id="alice")
    with pytest.raises(MemoryStateError):
        memory_bulk_apply(memories=[active], action=BulkAction.RESUME, actor="user:alice")
