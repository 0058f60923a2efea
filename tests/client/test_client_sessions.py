"""memgov_client's Sessions, task state and handoff calls against the live server: every endpoint, the errors
it maps (a field named on a 400, a 409's code), the other tenant's key, and the async client."""

from __future__ import annotations

import pytest
from async_run import run as run_async
from memgov_client import AsyncClient, BadRequest, Client, Conflict, NotFound, PermissionDenied

from governance.services.tenancy import agent_key_create
from governance.vocabulary import AgentScope

TURN = [
    {"kind": "user_message", "content": "Where is order 42?"},
    {"kind": "assistant_message", "content": "It shipped on Monday."},
]


def test_a_session_from_creation_to_deletion(memgov):
    session = memgov.sessions.create(user_id="alice", app="support", title="Order 42")
    assert session["state"] == "created" and session["merged_state"] == {}
    appended = memgov.sessions.append(session["id"], TURN)
    first, second = appended["events"]
    assert [first["seq"], second["seq"]] == [1, 2] and appended["leaf_id"] == second["id"]
    branch = memgov.sessions.events(session["id"])
    assert [e["content"] for e in branch["events"]] == [t["content"] for t in TURN] and not branch["has_more"]
    assert [e["id"] for e in memgov.sessions.events(session["id"], limit=1)["events"]] == [second["id"]]
    delta = memgov.sessions.append(session["id"], [{"kind": "state_delta", "state_delta": {"order": 42}}])
    state = memgov.sessions.state(session["id"])
    assert state["state"] == {"order": 42} and state["at_event_id"] == delta["leaf_id"]
    assert memgov.sessions.state(session["id"], at=second["id"])["state"] == {}
    popped = memgov.sessions.pop(session["id"])
    assert popped["event"]["kind"] == "state_delta" and popped["leaf_id"] == second["id"]
    fork = memgov.sessions.fork(session["id"], from_event_id=first["id"], title="Retry")
    assert fork["parent_id"] == session["id"] and fork["leaf_id"] == first["id"]
    projection = memgov.sessions.context(session["id"], token_budget=500)
    assert [m["content"] for m in projection["messages"]] == [t["content"] for t in TURN]
    compacted = memgov.sessions.compact(session["id"])
    assert set(compacted["covered_event_ids"]) >= {first["id"], second["id"]}
    assert [s["id"] for s in memgov.sessions.list(user_id="alice", last=True)["results"]] == [session["id"]]
    assert {s["id"] for s in memgov.sessions.iter(user_id="alice", page_size=1)} == {session["id"], fork["id"]}
    ended = memgov.sessions.update(session["id"], state="ended")
    assert ended["state"] == "ended"
    with pytest.raises(Conflict) as closed:
        memgov.sessions.append(session["id"], TURN)
    assert closed.value.reason_code == "ended"
    memgov.sessions.delete(fork["id"])
    with pytest.raises(NotFound):
        memgov.sessions.get(fork["id"])


def test_bad_input_names_the_field(memgov):
    session = memgov.sessions.create(user_id="alice", app="support")
    with pytest.raises(BadRequest) as kind:
        memgov.sessions.append(session["id"], [{"kind": "compaction", "content": "x"}])
    assert kind.value.field.startswith("events")
    with pytest.raises(BadRequest) as app:
        memgov.sessions.create(user_id="alice", app="no spaces allowed")
    assert app.value.field == "app"
    with pytest.raises(ValueError):
        memgov.sessions.get("../../memories")  # refused before it reaches a URL


def test_events_after_an_event_reads_only_what_is_new(memgov, acme):
    session = memgov.sessions.create(user_id="alice", app="support")
    first, second = memgov.sessions.append(session["id"], TURN)["events"]
    assert [e["id"] for e in memgov.sessions.events(session["id"], after=first["id"])["events"]] == [second["id"]]
    assert memgov.sessions.events(session["id"], after=second["id"])["events"] == []
    memgov.sessions.pop(session["id"])
    with pytest.raises(BadRequest) as popped:
        memgov.sessions.events(session["id"], after=second["id"])
    assert popped.value.field == "after"
    with pytest.raises(NotFound):
        acme.sessions.events(session["id"], after=first["id"])


def test_task_state_put_get_and_time_travel(memgov):
    session = memgov.sessions.create(user_id="alice", app="support")
    first = memgov.task_states.put("refund-42", session_id=session["id"], goal="Refund order 42", current_step="a")
    memgov.task_states.put("refund-42", session_id=session["id"], goal="Refund order 42", current_step="b")
    assert memgov.task_states.get("refund-42", session_id=session["id"])["current_step"] == "b"
    at_first = memgov.task_states.get("refund-42", session_id=session["id"], at=first["at_event_id"])
    assert at_first["current_step"] == "a" and at_first["status"] == first["status"]
    with pytest.raises(BadRequest) as status:
        memgov.task_states.put("refund-42", session_id=session["id"], approval_status="mine")
    assert status.value.field == "approval_status"


def test_a_handoff_reaches_the_receiving_key_only(world, memgov, live_server):
    session = memgov.sessions.create(user_id="alice", app="support")
    memgov.task_states.put("refund-42", session_id=session["id"], goal="Refund order 42")
    _agent, key = agent_key_create(tenant=world.demo, name="billing", actor="test", scopes=[AgentScope.HANDOFFS_READ])
    handoff = memgov.handoffs.create(session_id=session["id"], task_id="refund-42", to_agent="billing")
    with Client(live_server.url, key) as billing:
        assert billing.handoffs.get(handoff["id"])["task_state"]["goal"] == "Refund order 42"
        with pytest.raises(PermissionDenied):
            billing.sessions.events(session["id"])
    with pytest.raises(NotFound):
        memgov.handoffs.get(handoff["id"])
    with pytest.raises(BadRequest) as unknown:
        memgov.handoffs.create(session_id=session["id"], task_id="refund-42", to_agent="nobody")
    assert unknown.value.field == "to_agent"


def test_the_other_tenants_key_reaches_no_session(memgov, acme):
    session = memgov.sessions.create(user_id="alice", app="support")
    memgov.sessions.append(session["id"], TURN)
    for attempt in (
        lambda: acme.sessions.get(session["id"]),
        lambda: acme.sessions.events(session["id"]),
        lambda: acme.sessions.append(session["id"], TURN),
        lambda: acme.sessions.context(session["id"], token_budget=100),
        lambda: acme.task_states.get("refund-42", session_id=session["id"]),
    ):
        with pytest.raises(NotFound):
            attempt()
    assert acme.sessions.list(user_id="alice")["results"] == []
    assert memgov.sessions.get(session["id"])["event_count"] == 2


def test_the_async_client_has_the_same_calls(world, live_server):
    async def run():
        async with AsyncClient(live_server.url, world.demo_key) as memgov:
            session = await memgov.sessions.create(user_id="alice", app="support")
            await memgov.sessions.append(session["id"], TURN)
            await memgov.task_states.put("t-1", session_id=session["id"], goal="g")
            listed = [s["id"] async for s in memgov.sessions.iter(user_id="alice")]
            projection = await memgov.sessions.context(session["id"], token_budget=200)
            task = await memgov.task_states.get("t-1", session_id=session["id"])
            return session["id"], listed, projection, task

    session_id, listed, projection, task = run_async(run)
    assert listed == [session_id] and task["goal"] == "g"
    assert [m["content"] for m in projection["messages"]] == [t["content"] for t in TURN]
