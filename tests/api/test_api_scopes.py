"""Agent key scopes on the REST API: a read-only key reads and changes nothing; every endpoint has a scope."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from audit.models import AuditEvent
from governance.scopes import SCOPE_TABLE, ScopeLookup, scope_for_endpoint
from governance.services.tenancy import agent_key_create, agent_scopes_set
from governance.vocabulary import READ_ONLY_SCOPES, AgentScope
from memories.models import Confirmation, Memory

WRITE = {
    "content": "Remember: I prefer answers with tables.",
    "scope": {"level": "user", "user_id": "alice"},
    "source": {"source_type": "explicit_user_request"},
}


@pytest.fixture
def reader(world):
    _client, key = agent_key_create(tenant=world.demo, name="reader", actor="test", scopes=READ_ONLY_SCOPES)
    return world.agent_client(key)


def test_a_read_only_key_reads_context_and_lists(world, reader, make_memory):
    make_memory(world.demo, "Prefers tables", user_id="alice")
    context = reader.post("/api/v1/memories/context", {"scope": {"user_id": "alice"}}, format="json")
    assert context.status_code == 200
    assert [item["content"] for item in context.json()["items"]] == ["Prefers tables"]
    listed = reader.get("/api/v1/memories", {"user_id": "alice"})
    assert [item["content"] for item in listed.json()["results"]] == ["Prefers tables"]


def test_a_read_only_key_cannot_write_change_delete_or_confirm(world, reader, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    url = f"/api/v1/memories/{memory.id}"
    refused = [
        reader.post("/api/v1/memories/write", WRITE, format="json"),
        reader.patch(url, {"content": "Prefers prose"}, format="json"),
        reader.delete(url),
        reader.post(f"{url}/pause"),
        reader.post("/api/v1/commands", {"user_id": "alice", "text": "forget everything"}, format="json"),
        reader.post("/api/v1/confirmations/0190a0a0-0000-7000-8000-000000000000/accept"),
        reader.post("/api/v1/tasks/t-1/complete"),
    ]
    for response in refused:
        assert response.status_code == 403, response.content
        assert response.json()["error"] == "insufficient_scope"
    assert "memory.write" in refused[0].json()["detail"]
    memory.refresh_from_db()
    assert memory.status == "active" and memory.content == "Prefers tables"
    assert Memory.objects.filter(tenant=world.demo).count() == 1
    assert not AuditEvent.objects.filter(event="memory_write_requested").exists()


def test_a_key_without_scopes_can_call_nothing(world):
    _client, key = agent_key_create(tenant=world.demo, name="nothing", actor="test", scopes=[])
    agent = world.agent_client(key)
    assert agent.post("/api/v1/memories/context", {"scope": {"user_id": "alice"}}, format="json").status_code == 403
    assert agent.get("/api/v1/memories", {"user_id": "alice"}).status_code == 403


def test_a_scope_change_applies_to_the_next_request_and_is_audited(world):
    agent = world.agent_client(world.demo_key)
    assert agent.post("/api/v1/memories/write", WRITE, format="json").status_code == 200
    agent_scopes_set(client=world.demo_agent, scopes=[AgentScope.MEMORY_READ], actor="user:carol")
    assert agent.post("/api/v1/memories/write", WRITE, format="json").status_code == 403
    event = AuditEvent.objects.filter(event="agent_rights_changed").get()
    prefix = world.demo_agent.key_prefix
    assert event.details == {"agent": "demo-agent", "key_prefix": prefix, "scopes": ["memory.read"]}


def test_one_tenants_scopes_do_not_touch_anothers_keys(world):
    agent_scopes_set(client=world.demo_agent, scopes=[], actor="user:carol")
    acme = world.agent_client(world.acme_key)
    assert acme.post("/api/v1/memories/write", WRITE, format="json").status_code == 200


def test_an_unknown_scope_is_refused(world):
    with pytest.raises(ValueError, match=r"memory\.everything"):
        agent_scopes_set(client=world.demo_agent, scopes=["memory.everything"], actor="user:carol")
    world.demo_agent.refresh_from_db()
    assert sorted(world.demo_agent.scopes) == sorted(s.value for s in AgentScope)


def test_a_person_in_their_browser_is_not_held_to_agent_scopes(world, make_memory):
    make_memory(world.demo, "Prefers tables", user_id="alice")
    response = world.user_client(world.alice).post("/api/v1/memories/write", WRITE, format="json")
    assert response.status_code == 200


def _routes(patterns: list, prefix: str = "") -> list[tuple[str, object]]:
    found = []
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found.extend(_routes(pattern.url_patterns, route))
        elif isinstance(pattern, URLPattern):
            found.append((route, pattern.callback))
    return found


def _api_endpoints() -> list[tuple[str, str]]:
    endpoints = []
    for route, callback in _routes(get_resolver().url_patterns):
        view = getattr(callback, "view_class", None)
        if not route.startswith("api/v1/") or view is None:
            continue
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                endpoints.append((method.upper(), route))
    return endpoints


def test_every_agent_endpoint_has_a_scope_or_a_right_of_its_own():
    endpoints = _api_endpoints()
    assert len(endpoints) >= 14  # what main has today; the sessions API adds more
    unscoped = [e for e in endpoints if scope_for_endpoint(method=e[0], route=e[1]) is None]
    assert unscoped == []
    assert scope_for_endpoint(method="GET", route="api/v1/audit/export") == ScopeLookup.OWN_RIGHT


def test_the_lookup_denies_what_the_table_does_not_name():
    assert scope_for_endpoint(method="DELETE", route="api/v1/memories/write") is None
    assert scope_for_endpoint(method="GET", route="api/v1/memories/<uuid:memory_id>") == AgentScope.MEMORY_READ
    assert scope_for_endpoint(method="HEAD", route="api/v1/memories") == AgentScope.MEMORY_READ


def test_every_scope_grants_something_and_no_endpoint_or_tool_is_in_two():
    endpoints = [e for grant in SCOPE_TABLE for e in grant.endpoints]
    tools = [t for grant in SCOPE_TABLE for t in grant.tools]
    assert len(endpoints) == len(set(endpoints)) and len(tools) == len(set(tools))
    assert {grant.scope for grant in SCOPE_TABLE} == set(AgentScope)
    assert all(grant.endpoints for grant in SCOPE_TABLE)


def test_a_confirmation_stays_pending_when_a_read_only_key_tries_to_settle_it(world, reader):
    writer = world.agent_client(world.demo_key)
    inferred = {**WRITE, "content": "Prefers dark mode", "source": {"source_type": "agent_inference"}}
    inferred["confidence"] = 0.8
    pending = writer.post("/api/v1/memories/write", inferred, format="json").json()
    assert pending["decision"] == "ask_confirmation"
    response = reader.post(f"/api/v1/confirmations/{pending['confirmation_id']}/accept")
    assert response.status_code == 403
    assert Confirmation.objects.get(pk=pending["confirmation_id"]).state == "pending"


def test_create_agent_key_takes_the_scopes(world):
    from io import StringIO

    from django.core.management import CommandError, call_command

    out = StringIO()
    call_command("create_agent_key", tenant="demo", name="reader-cli", scopes="memory.read", stdout=out)
    key = out.getvalue().strip().splitlines()[-1]
    assert world.agent_client(key).post("/api/v1/memories/write", WRITE, format="json").status_code == 403
    with pytest.raises(CommandError, match=r"unknown memory\.all"):
        call_command("create_agent_key", tenant="demo", name="other", scopes="memory.all", stdout=StringIO())
