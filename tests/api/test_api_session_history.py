"""The Sessions API, part 2: events, branches, pop, fork, state at an event, compaction, the context, tasks.
Every test has the other tenant's agent and the teammate (bob) who must get a 404."""

from __future__ import annotations

import pytest
from rest_framework.renderers import JSONRenderer

from api.sessions.event_serializers import PopOut
from conversations.models import Event
from dbkit.ids import new_id


@pytest.fixture(autouse=True, scope="module")
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


@pytest.fixture
def agent(world):
    return world.agent_client(world.demo_key)


@pytest.fixture
def session(agent):
    return agent.post("/api/v1/sessions", {"user_id": "alice", "app": "chat"}, format="json").json()


def url(session, tail=""):
    return f"/api/v1/sessions/{session['id']}{tail}"


def outsiders(world):
    return [world.agent_client(world.acme_key), world.user_client(world.bob), world.user_client(world.erin)]


def post(client, path, body=None):
    return client.post(path, body if body is not None else {}, format="json")


def test_append_one_or_a_batch_and_read_the_branch_back(world, agent, session):
    one = post(agent, url(session, "/events"), {"kind": "user_message", "content": "Where is my refund?"})
    assert one.status_code == 201
    batch = post(agent, url(session, "/events"), {"events": [
        {"kind": "tool_call", "content": '{"order": 123}', "tool_call_id": "call_1"},
        {"kind": "tool_result", "content": '{"status": "pending"}', "tool_call_id": "call_1"},
        {"kind": "assistant_message", "content": "It is pending."},
    ]}).json()  # fmt: skip
    assert [e["seq"] for e in batch["events"]] == [2, 3, 4] and batch["leaf_id"] == batch["events"][-1]["id"]
    branch = world.user_client(world.alice).get(url(session, "/events")).json()
    assert next(e["content"] for e in branch["events"]) == "Where is my refund?" and not branch["has_more"]
    page = agent.get(url(session, "/events?limit=2")).json()
    assert [e["seq"] for e in page["events"]] == [3, 4] and page["has_more"]
    earlier = agent.get(url(session, f"/events?limit=2&leaf={page['next_leaf']}")).json()
    assert [e["seq"] for e in earlier["events"]] == [1, 2] and not earlier["has_more"]
    for outsider in outsiders(world):
        assert post(outsider, url(session, "/events"), {"kind": "user_message", "content": "x"}).status_code == 404
        assert outsider.get(url(session, "/events")).status_code == 404


def messages(client, session, *texts):
    body = {"events": [{"kind": "user_message", "content": text} for text in texts]}
    return [e["id"] for e in post(client, url(session, "/events"), body).json()["events"]]


def contents(response):
    assert response.status_code == 200, response.content
    return [e["content"] for e in response.json()["events"]]


def test_after_reads_only_what_was_appended_since(world, agent, session):
    ids = messages(agent, session, "one", "two", "three")
    assert contents(agent.get(url(session, f"/events?after={ids[0]}"))) == ["two", "three"]
    messages(agent, session, "four")
    alice = world.user_client(world.alice)
    assert contents(alice.get(url(session, f"/events?after={ids[2]}"))) == ["four"]
    latest = agent.get(url(session, "/events?limit=1")).json()["events"][0]["id"]
    up_to_date = agent.get(url(session, f"/events?after={latest}")).json()
    assert up_to_date == {"events": [], "has_more": False, "next_leaf": None}
    # Bounded by leaf too: the events after one and up to another.
    assert contents(agent.get(url(session, f"/events?after={ids[0]}&leaf={ids[2]}"))) == ["two", "three"]
    for outsider in outsiders(world):
        assert outsider.get(url(session, f"/events?after={ids[0]}")).status_code == 404


def test_after_pages_back_to_the_cursor_and_no_further(world, agent, session):
    ids = messages(agent, session, *[f"m{i}" for i in range(7)])
    page = agent.get(url(session, f"/events?after={ids[1]}&limit=2")).json()
    assert [e["content"] for e in page["events"]] == ["m5", "m6"] and page["has_more"]
    assert page["next_leaf"] == ids[4]
    page = agent.get(url(session, f"/events?after={ids[1]}&limit=2&leaf={page['next_leaf']}")).json()
    assert [e["content"] for e in page["events"]] == ["m3", "m4"] and page["has_more"]
    page = agent.get(url(session, f"/events?after={ids[1]}&limit=2&leaf={page['next_leaf']}")).json()
    assert [e["content"] for e in page["events"]] == ["m2"] and not page["has_more"] and page["next_leaf"] is None


def test_after_reads_across_a_forks_prefix(world, agent, session):
    ids = messages(agent, session, "root", "shared")
    fork = post(agent, url(session, "/fork"), {"from_event_id": ids[1]}).json()
    messages(agent, fork, "the fork's own")
    assert contents(agent.get(url(fork, f"/events?after={ids[0]}"))) == ["shared", "the fork's own"]


def _after_error(client, session, value):
    response = client.get(url(session, f"/events?after={value}"))
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "invalid_request" and list(body["fields"]) == ["after"], body
    return body["fields"]["after"]


def test_after_is_validated_and_a_bad_one_names_the_field(world, agent, session):
    ids = messages(agent, session, "one", "two", "three")
    assert _after_error(agent, session, "yesterday") == ["Must be a valid UUID."]
    off_branch = ["No such event on this branch."]
    assert _after_error(agent, session, new_id()) == off_branch  # no such event
    other = agent.post("/api/v1/sessions", {"user_id": "alice", "app": "chat"}, format="json").json()
    elsewhere = messages(agent, other, "elsewhere")
    assert _after_error(agent, session, elsewhere[0]) == off_branch  # another session's
    acme = world.agent_client(world.acme_key)
    acmes = acme.post("/api/v1/sessions", {"user_id": "alice", "app": "chat"}, format="json").json()
    theirs = messages(acme, acmes, "acme's")
    assert _after_error(agent, session, theirs[0]) == off_branch  # another tenant's
    assert acme.get(url(acmes, f"/events?after={ids[0]}")).json()["fields"] == {"after": off_branch}
    # After the leaf it names: not on the branch that ends there.
    response = agent.get(url(session, f"/events?after={ids[2]}&leaf={ids[0]}"))
    assert response.status_code == 400 and response.json()["fields"] == {"after": off_branch}


def test_after_an_event_popped_off_the_branch_is_a_400(world, agent, session):
    ids = messages(agent, session, *[f"m{i}" for i in range(5)])
    for _ in range(3):
        post(agent, url(session, "/pop"))
    messages(agent, session, "n2", "n3", "n4", "n5")
    # The walk stops at the cursor's depth (the limit) or just below it: either way it is not an ancestor.
    assert _after_error(agent, session, ids[3]) == ["No such event on this branch."]
    response = agent.get(url(session, f"/events?after={ids[2]}&limit=2"))
    assert response.status_code == 400 and response.json()["fields"] == {"after": ["No such event on this branch."]}
    assert contents(agent.get(url(session, f"/events?after={ids[1]}"))) == ["n2", "n3", "n4", "n5"]


def test_after_on_a_session_without_events_is_a_400(world, agent, session):
    other = agent.post("/api/v1/sessions", {"user_id": "alice", "app": "chat"}, format="json").json()
    event = messages(agent, other, "x")[0]
    assert _after_error(agent, session, event) == ["No such event on this branch."]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "shouting", "content": "x"}, "kind"),
        ({"kind": "compaction", "content": "x"}, "events[0].kind"),
        ({"kind": "user_message", "content": "x" * 64_001}, "content"),
        ({"kind": "state_delta", "state_delta": [1, 2]}, "state_delta"),
        ({"kind": "state_delta", "state_delta": "text"}, "state_delta"),
        ({"kind": "user_message", "content": "x", "parent_id": "not-a-uuid"}, "parent_id"),
        ({"kind": "user_message", "content": "x", "parent_id": str(new_id())}, "events[0].parent_id"),
        ({"kind": "tool_call", "content": "x", "tool_call_id": "a b"}, "tool_call_id"),
        ({"kind": "tool_result", "content": "x", "tool_result": {"type": "oracle"}}, "tool_result"),
        ({"events": []}, "events"),
        ({"events": [{"kind": "user_message", "content": "x"}] * 101}, "events"),
        ({"events": "nope"}, "events"),
    ],
)
def test_bad_events_answer_400_naming_the_field_and_store_nothing(world, agent, session, body, field):
    response = post(agent, url(session, "/events"), body)
    assert response.status_code == 400, response.content
    assert field in response.json()["fields"], response.json()
    assert not Event.objects.exists()
    assert post(world.agent_client(world.acme_key), url(session, "/events"), body).status_code == 404


def test_a_parent_from_another_session_is_a_400(world, agent, session):
    other = agent.post("/api/v1/sessions", {"user_id": "alice", "app": "chat"}, format="json").json()
    theirs = post(agent, url(other, "/events"), {"kind": "user_message", "content": "elsewhere"}).json()
    response = post(agent, url(session, "/events"), {"kind": "user_message", "content": "x",
                                                      "parent_id": theirs["events"][0]["id"]})  # fmt: skip
    assert response.status_code == 400 and "events[0].parent_id" in response.json()["fields"]
    assert world.user_client(world.bob).post(url(session, "/events"), {}, format="json").status_code == 404


def test_an_ended_session_refuses_appends_with_409(world, agent, session):
    agent.patch(url(session), {"state": "ended"}, format="json")
    response = post(agent, url(session, "/events"), {"kind": "user_message", "content": "late"})
    assert response.status_code == 409 and response.json()["error"] == "ended"
    assert post(world.agent_client(world.acme_key), url(session, "/events"), {"kind": "label"}).status_code == 404


def test_pop_fork_and_time_travel(world, agent, session):
    events = post(agent, url(session, "/events"), {"events": [
        {"kind": "state_delta", "state_delta": {"city": "Paris", "user:lang": "fr"}},
        {"kind": "state_delta", "state_delta": {"city": "Rome"}},
        {"kind": "user_message", "content": "third"},
    ]}).json()["events"]  # fmt: skip
    first = events[0]["id"]
    assert agent.get(url(session)).json()["merged_state"] == {"city": "Rome", "user:lang": "fr"}
    then = agent.get(url(session, f"/state?at={first}")).json()
    assert then["state"] == {"city": "Paris", "user:lang": "fr"} and then["at_event_id"] == first
    assert agent.get(url(session, f"/state?at={new_id()}")).json()["fields"] == {
        "at": ["No such event in this session."]
    }
    assert agent.get(url(session, "/state?at=yesterday")).status_code == 400

    response = post(agent, url(session, "/pop"))
    popped = response.json()
    assert popped["event"]["content"] == "third" and popped["leaf_id"] == events[1]["id"]
    assert response.content == JSONRenderer().render(PopOut(popped).data)  # what PopOut, which documents it, writes

    fork = post(agent, url(session, "/fork"), {"from_event_id": first, "title": "What if Paris"})
    assert fork.status_code == 201
    body = fork.json()
    assert body["parent_id"] == session["id"] and body["merged_state"]["city"] == "Paris"
    assert post(agent, url(session, "/fork"), {"from_event_id": str(new_id())}).json()["fields"] == {
        "from_event_id": ["no such event in this session"]
    }
    assert post(agent, url(session, "/fork"), {}).status_code == 400
    for outsider in outsiders(world):
        assert post(outsider, url(session, "/pop")).status_code == 404
        assert post(outsider, url(session, "/fork"), {"from_event_id": first}).status_code == 404
        assert outsider.get(url(session, f"/state?at={first}")).status_code == 404


def test_pop_on_an_empty_session_is_a_409(world, agent, session):
    response = post(agent, url(session, "/pop"))
    assert response.status_code == 409 and response.json()["error"] == "empty"
    assert post(world.user_client(world.bob), url(session, "/pop")).status_code == 404


def test_compact_and_the_context_projection(world, agent, session):
    post(agent, url(session, "/events"), {"events": [
        {"kind": "user_message", "content": "Help me decide whether the refund for order 123 needs review."},
        {"kind": "user_message", "content": "My password is hunter2-Zx9!kQ, keep it safe."},
        {"kind": "assistant_message", "content": "The finance lead approved the refund."},
    ]})  # fmt: skip
    compacted = post(agent, url(session, "/compact"))
    assert compacted.status_code == 201
    body = compacted.json()
    assert len(body["covered_event_ids"]) == 3 and "hunter2" not in body["summary"]
    assert "approved the refund" in body["summary"]
    assert post(agent, url(session, "/compact")).status_code == 409  # nothing new
    post(agent, url(session, "/events"), {"kind": "user_message", "content": "And now?"})
    context = post(agent, url(session, "/context"), {"token_budget": 500}).json()
    assert [m["role"] for m in context["messages"]] == ["system", "user"]
    assert context["messages"][0]["content"] == body["summary"] and context["tokens"] <= 500
    for bad in ({}, {"token_budget": 0}, {"token_budget": "lots"}, {"token_budget": 10**9}):
        assert post(agent, url(session, "/context"), bad).status_code == 400
    for outsider in outsiders(world):
        assert post(outsider, url(session, "/compact")).status_code == 404
        assert post(outsider, url(session, "/context"), {"token_budget": 500}).status_code == 404


def test_task_state_over_the_api(world, agent, session):
    path = f"/api/v1/tasks/refund-001?session_id={session['id']}"
    assert agent.get(path).status_code == 404  # no state yet
    put = agent.put(path, {"goal": "Decide on the refund", "completed_steps": ["collect_order"],
                           "approval_status": "pending"}, format="json")  # fmt: skip
    assert put.status_code == 200
    first = put.json()["at_event_id"]
    agent.put(path, {"goal": "Decide on the refund", "approval_status": "approved"}, format="json")
    now = agent.get(path).json()
    assert now["approval_status"] == "approved" and now["completed_steps"] == [] and now["status"] == "open"
    then = agent.get(f"{path}&at={first}").json()
    assert then["approval_status"] == "pending" and then["completed_steps"] == ["collect_order"]
    assert agent.put(path, {"approval_status": "maybe"}, format="json").status_code == 400
    assert agent.put(path, {"completed_steps": "one"}, format="json").status_code == 400
    assert agent.get("/api/v1/tasks/refund-001").status_code == 400  # session_id is required
    assert agent.get("/api/v1/tasks/no-such-task").status_code == 404  # …unless the task is unknown here
    assert agent.get("/api/v1/tasks/bad%20id?session_id=" + session["id"]).status_code == 400
    done = post(agent, "/api/v1/tasks/refund-001/complete").json()
    assert done["archived"] == 0 and agent.get(path).json()["status"] == "archived"
    assert agent.put(path, {"goal": "again"}, format="json").status_code == 409
    for outsider in outsiders(world):
        assert outsider.get(path).status_code == 404
        assert outsider.put(path, {"goal": "mine now"}, format="json").status_code == 404
    assert post(world.agent_client(world.acme_key), "/api/v1/tasks/refund-001/complete").status_code == 404


def test_a_kept_tool_result_over_the_api(world, agent, session):
    response = post(agent, url(session, "/events"), {
        "kind": "tool_result", "content": '{"order": 123, "status": "pending"}', "tool_call_id": "call_9",
        "tool_result": {"type": "query", "keep": {"content": "Order 123 was pending"}},
    })  # fmt: skip
    kept = response.json()["events"][0]["kept"]
    assert kept["decision"] == "save" and kept["memory_id"]
    listed = agent.get("/api/v1/memories?user_id=alice").json()["results"]
    assert [m["type"] for m in listed] == ["tool_result_ref"]
    assert world.agent_client(world.acme_key).get(f"/api/v1/memories/{kept['memory_id']}").status_code == 404
    assert world.user_client(world.bob).get(f"/api/v1/memories/{kept['memory_id']}").status_code == 404


def test_every_read_of_the_branch_dates_its_events_with_a_time_zone(world, agent, session):
    """created_at is an ISO date-time with its offset however the branch is read (the schema's date-time)."""
    from datetime import datetime

    ids = messages(agent, session, "one", "two", "three")
    reads = [
        agent.get(url(session, "/events")),
        agent.get(url(session, "/events?limit=100")),
        agent.get(url(session, "/events?limit=1")),
        agent.get(url(session, f"/events?after={ids[0]}")),
        agent.get(url(session, f"/events?leaf={ids[1]}")),
    ]
    stamps = [e["created_at"] for read in reads for e in read.json()["events"]]
    assert len(stamps) == 3 + 3 + 1 + 2 + 2
    assert all(datetime.fromisoformat(stamp.replace("Z", "+00:00")).tzinfo is not None for stamp in stamps), stamps
