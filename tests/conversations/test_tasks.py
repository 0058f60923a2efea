"""Task state: changed only by events, recoverable at any event, archived on completion; tool results (§14.1)."""

from __future__ import annotations

import pytest
from session_helpers import append, fresh

from audit.models import AuditEvent
from conversations.models import Event
from conversations.selectors.events import event_visible_to
from conversations.selectors.tasks import task_state_get
from conversations.services.errors import SessionInputError, SessionStateError
from conversations.services.events import NewEvent, session_events_append
from conversations.services.tasks import task_complete, task_state_update
from conversations.services.tool_results import KeepAsMemory, ToolResult
from governance.vocabulary import Level, Status
from memories.models import Memory

TASK = "refund-review-001"


@pytest.fixture(autouse=True, scope="module")
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def put(session, **values):
    return task_state_update(
        tenant_id=session.tenant_id, session_id=session.pk, task_id=TASK, values=values, actor="test"
    )


def test_every_change_is_an_event_and_any_earlier_state_can_be_recovered(world, make_session):
    session = make_session()
    first, _ = put(session, goal="Decide on the refund", current_step="collect_order")
    _second, _ = put(
        session, goal="Decide on the refund", current_step="check_invoice", completed_steps=["collect_order"]
    )
    now = task_state_get(session=fresh(session), task_id=TASK)
    assert now.values["current_step"] == "check_invoice" and now.values["completed_steps"] == ["collect_order"]
    then = task_state_get(session=fresh(session), task_id=TASK, at=event_visible_to(session=session, event_id=first.pk))
    assert then.values["current_step"] == "collect_order" and then.values["completed_steps"] == []
    assert Event.objects.filter(session=session, task_id=TASK).count() == 2
    rows = AuditEvent.objects.filter(event="task_state_changed").order_by("seq")
    assert [r.details["changed"] for r in rows] == [["current_step", "goal"], ["completed_steps", "current_step"]]
    assert "Decide" not in str([r.details for r in rows]) and "collect_order" not in str([r.details for r in rows])


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"goal": 42}, "goal"),
        ({"completed_steps": "collect_order"}, "completed_steps"),
        ({"approval_status": "maybe"}, "approval_status"),
        ({"colour": "blue"}, "colour"),
        ({"status": "archived"}, "status"),
    ],
)
def test_bad_task_state_is_refused_naming_the_field(world, make_session, values, field):
    session = make_session()
    with pytest.raises(SessionInputError) as refused:
        put(session, **values)
    assert refused.value.field == field
    assert not Event.objects.filter(session=session).exists()


def test_completing_a_task_archives_its_memories_and_its_state(world, make_session, make_memory):
    session = make_session()
    put(session, goal="Decide on the refund")
    memory = make_memory(world.demo, "step 1 done", user_id="alice", level=Level.TASK, task_id=TASK,
                         type="task_state", source_type="task_state_machine")  # fmt: skip
    done = task_complete(tenant_id=world.demo.pk, task_id=TASK, actor="test")
    assert (done.found, done.archived, done.states_archived) == (2, 1, 1)
    assert Memory.objects.get(pk=memory.pk).status == Status.ARCHIVED
    state = task_state_get(session=fresh(session), task_id=TASK)
    assert state.values["status"] == "archived" and state.values["goal"] == "Decide on the refund"
    with pytest.raises(SessionStateError):
        put(session, goal="change it after all")
    assert task_complete(tenant_id=world.demo.pk, task_id=TASK, actor="test").states_archived == 0  # idempotent


def tool_result(session, **kwargs):
    new = NewEvent(kind="tool_result", content='{"order": 123, "status": "pending"}', tool_call_id="call_7", **kwargs)
    return session_events_append(tenant_id=session.tenant_id, session_id=session.pk, events=[new], actor="agent:x")[0]


def test_an_approval_result_goes_to_the_task_state_and_the_audit_log(world, make_session):
    session = make_session()
    put(session, goal="Decide on the refund", approval_status="pending")
    item = tool_result(session, task_id=TASK, tool_result=ToolResult(type="approval", approval_status="approved"))
    state = task_state_get(session=fresh(session), task_id=TASK).values
    assert state["approval_status"] == "approved" and state["last_tool_result_id"] == str(item.event.pk)
    fact = AuditEvent.objects.get(event="audit_fact_recorded")
    assert fact.reason_code == "tool_approval_result" and fact.details["approval_status"] == "approved"
    assert AuditEvent.objects.filter(event="task_state_changed").count() == 2


def test_a_write_result_goes_to_the_audit_log_not_to_memory(world, make_session):
    session = make_session()
    item = tool_result(session, tool_result=ToolResult(type="write"))
    fact = AuditEvent.objects.get(event="audit_fact_recorded")
    assert fact.reason_code == "tool_write_result" and fact.details["event_id"] == str(item.event.pk)
    assert not Memory.objects.exists()


def test_a_query_result_may_be_kept_as_a_dated_tool_result_ref_with_an_expiry(world, make_session):
    session = make_session()
    item = tool_result(session, tool_result=ToolResult(keep=KeepAsMemory("Order 123 was pending")))
    assert item.kept.decision.kind == "save"
    memory = Memory.objects.get()
    assert memory.type == "tool_result_ref" and memory.level == "session" and memory.session_id == str(session.pk)
    assert memory.source_type == "tool_result" and memory.source_message_id == str(item.event.pk)
    assert memory.content.startswith("Order 123 was pending (as of ") and memory.expires_at is not None


def test_a_dont_save_session_keeps_no_tool_result(world, make_session):
    session = make_session(dont_save=True)
    item = tool_result(session, tool_result=ToolResult(keep=KeepAsMemory("Order 123 was pending")))
    assert item.kept.decision.reason_code == "session_opt_out"
    assert not Memory.objects.exists()
    assert Event.objects.filter(session=session).count() == 1  # the raw result stays in the session


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        (ToolResult(type="oracle"), "events[0].tool_result.type"),
        (ToolResult(type="approval", approval_status="approved"), "events[0].tool_result.type"),  # no task_id
        (ToolResult(type="write", keep=KeepAsMemory("x")), "events[0].tool_result.keep"),
        (ToolResult(type="query", approval_status="approved"), "events[0].tool_result.approval_status"),
    ],
)
def test_bad_tool_results_are_refused(world, make_session, spec, field):
    session = make_session()
    with pytest.raises(SessionInputError) as refused:
        tool_result(session, tool_result=spec)
    assert refused.value.field == field
    assert not Event.objects.exists()


def test_tool_result_details_only_on_a_tool_result(world, make_session):
    session = make_session()
    with pytest.raises(SessionInputError) as refused:
        append(session, NewEvent(kind="user_message", content="hi", tool_result=ToolResult()))
    assert refused.value.field == "events[0].tool_result"
