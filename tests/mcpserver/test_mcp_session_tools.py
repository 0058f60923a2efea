"""The session tools through the SDK's in-process client: the Sessions API's answers for the same calls, its
errors (a bad kind names the field, an ended session is refused), its audit events, and the other tenant's key."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from conversations.models import Event, Session
from conversations.services.sessions import session_create
from governance.services.tenancy import agent_key_create
from governance.vocabulary import READ_ONLY_SCOPES

TURN = [
    {"kind": "user_message", "content": "Please refund order 42"},
    {"kind": "assistant_message", "content": "Looking at order 42 now."},
]
TASK = {"goal": "Refund order 42", "current_step": "check the order", "completed_steps": ["find the order"]}
VOLATILE = {"id", "parent_id", "created_at", "last_active_at", "event_id", "at_event_id", "leaf_id", "session_id"}


def _stable(value):
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


@pytest.fixture
def two_sessions(world):
    """One session appended to over REST and one over MCP, the same events in each."""
    rest = session_create(tenant_id=world.demo.pk, user_id="alice", app="support", actor="test")
    mcp = session_create(tenant_id=world.demo.pk, user_id="alice", app="support", actor="test")
    return rest, mcp


def test_session_start_append_and_context_answer_what_the_sessions_api_answers(world, mcp_call, two_sessions):
    rest_session, mcp_session = two_sessions
    agent = world.agent_client(world.demo_key)
    rest = agent.post(f"/api/v1/sessions/{rest_session.pk}/events", {"events": TURN}, format="json")
    assert rest.status_code == 201
    mcp = mcp_call(world.demo_key, "session_append", {"session_id": str(mcp_session.pk), "events": TURN}).data
    assert _stable(mcp) == _stable(rest.json())
    assert [e["seq"] for e in mcp["events"]] == [1, 2] and mcp["leaf_id"] == mcp["events"][-1]["id"]
    stored = Event.objects.filter(session=mcp_session).order_by("seq")
    assert [e.content for e in stored] == [t["content"] for t in TURN]  # decrypted on read: sealed at rest

    rest_ctx = agent.post(f"/api/v1/sessions/{rest_session.pk}/context", {"token_budget": 500}, format="json").json()
    mcp_ctx = mcp_call(world.demo_key, "session_context", {"session_id": str(mcp_session.pk), "token_budget": 500})
    assert _stable(mcp_ctx.data) == _stable(rest_ctx)
    assert [m["content"] for m in mcp_ctx.data["messages"]] == [t["content"] for t in TURN]

    started = mcp_call(world.demo_key, "session_start", {"user_id": "alice", "app": "support", "title": "Refunds"})
    detail = agent.get(f"/api/v1/sessions/{started.data['id']}").json()
    assert _stable(started.data) == _stable(detail)
    assert Session.objects.get(pk=started.data["id"]).tenant == world.demo


def test_each_append_is_audited_as_the_rest_api_audits_it_and_holds_no_content(world, mcp_call, two_sessions):
    _rest, session = two_sessions
    mcp_call(world.demo_key, "session_append", {"session_id": str(session.pk), "events": TURN})
    rows = AuditEvent.objects.filter(tenant=world.demo, details__session_id=str(session.pk), actor="agent:demo-agent")
    assert rows.exists()
    assert all("refund" not in str(row.details).lower() for row in rows)


def test_task_state_update_and_get_match_the_tasks_endpoint_and_travel_in_time(world, mcp_call, two_sessions):
    rest_session, session = two_sessions
    agent = world.agent_client(world.demo_key)
    rest = agent.put(f"/api/v1/tasks/refund-42?session_id={rest_session.pk}", TASK, format="json").json()
    task = {"task_id": "refund-42", "session_id": str(session.pk)}
    first = mcp_call(world.demo_key, "task_state_update", {**task, **TASK})
    assert _stable(first.data) == _stable(rest)
    later = {**TASK, "current_step": "refund issued", "completed_steps": ["find the order", "check the order"]}
    mcp_call(world.demo_key, "task_state_update", {"task_id": "refund-42", "session_id": str(session.pk), **later})
    now = mcp_call(world.demo_key, "task_state_get", {"task_id": "refund-42", "session_id": str(session.pk)}).data
    assert now["current_step"] == "refund issued" and now["status"] == rest["status"]
    then = {"task_id": "refund-42", "session_id": str(session.pk), "at": first.data["at_event_id"]}
    assert mcp_call(world.demo_key, "task_state_get", then).data["current_step"] == "check the order"
    assert AuditEvent.objects.filter(tenant=world.demo, event="task_state_changed").count() == 3


def test_bad_input_is_a_tool_error_naming_the_field_and_stores_nothing(world, mcp_call, two_sessions):
    _rest, session = two_sessions
    bad_kind = mcp_call(
        world.demo_key, "session_append", {"session_id": str(session.pk), "events": [{"kind": "compaction"}]}
    )
    assert bad_kind.error and "invalid_request: events[0].kind" in bad_kind.text
    none = mcp_call(world.demo_key, "session_append", {"session_id": str(session.pk), "events": []})
    assert none.error and "events" in none.text
    budget = mcp_call(world.demo_key, "session_context", {"session_id": str(session.pk), "token_budget": 1})
    assert budget.error and "token_budget" in budget.text
    status = {"task_id": "t-1", "session_id": str(session.pk), "approval_status": "approved-by-me"}
    assert mcp_call(world.demo_key, "task_state_update", status).error
    missing = mcp_call(world.demo_key, "task_state_get", {"task_id": "never", "session_id": str(session.pk)})
    assert missing.error and "not_found" in missing.text
    assert not Event.objects.filter(session=session).exists()


def test_an_ended_session_refuses_appends_as_the_rest_api_does(world, mcp_call, two_sessions):
    _rest, session = two_sessions
    agent = world.agent_client(world.demo_key)
    assert agent.patch(f"/api/v1/sessions/{session.pk}", {"state": "ended"}, format="json").status_code == 200
    rest = agent.post(f"/api/v1/sessions/{session.pk}/events", TURN[0], format="json")
    called = mcp_call(world.demo_key, "session_append", {"session_id": str(session.pk), "events": TURN})
    assert rest.status_code == 409 and called.error
    assert f"{rest.json()['error']}: " in called.text


def test_the_other_tenants_key_reaches_no_session_or_task_of_this_tenant(world, mcp_call, two_sessions):
    _rest, session = two_sessions
    mcp_call(world.demo_key, "task_state_update", {"task_id": "refund-42", "session_id": str(session.pk), **TASK})
    acme = world.acme_key
    for tool, arguments in [
        ("session_append", {"session_id": str(session.pk), "events": TURN}),
        ("session_context", {"session_id": str(session.pk)}),
        ("task_state_get", {"task_id": "refund-42", "session_id": str(session.pk)}),
        ("task_state_update", {"task_id": "refund-42", "session_id": str(session.pk), "goal": "steal"}),
    ]:
        called = mcp_call(acme, tool, arguments)
        assert called.error and "not_found: No such resource." in called.text, tool
    assert Event.objects.filter(session=session).count() == 1  # the task state event only
    started = mcp_call(acme, "session_start", {"user_id": "alice", "app": "support"}).data
    assert Session.objects.get(pk=started["id"]).tenant == world.acme  # its own alice, not this tenant's


def test_a_read_only_key_reads_sessions_but_may_not_append(world, mcp_call, two_sessions):
    _rest, session = two_sessions
    _client, key = agent_key_create(tenant=world.demo, name="reader", actor="test", scopes=READ_ONLY_SCOPES)
    refused = mcp_call(key, "session_append", {"session_id": str(session.pk), "events": TURN})
    assert refused.error and "insufficient_scope" in refused.text and "sessions.write" in refused.text
    assert not mcp_call(key, "session_context", {"session_id": str(session.pk)}).error
    assert not Event.objects.filter(session=session).exists()
