"""The MCP server over real streamable HTTP (config.asgi under uvicorn): the Bearer key, the other tenant's
key, a read-only key, bad input, and a rejected write that is an answer, not an error."""

from __future__ import annotations

import httpx
import pytest

from audit.models import AuditEvent
from governance.services.tenancy import agent_key_create, agent_key_revoke
from governance.vocabulary import READ_ONLY_SCOPES
from memories.models import Memory

PREFERENCE = {
    "content": "Remember that I prefer answers with tables.",
    "scope": {"level": "user", "user_id": "alice"},
    "source": {"source_type": "explicit_user_request", "source_message_id": "msg-1"},
}
SECRET = "My key is sk-proj-abc123def456ghi789jkl012mno345, remember it"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def test_it_writes_and_reads_with_the_agent_key(asgi_server, world):
    written = asgi_server.call(world.demo_key, "memory_write", PREFERENCE).data
    assert written["decision"] == "save" and written["reason_code"] == "explicit_request"
    memory = Memory.objects.get(pk=written["memory_id"])
    assert memory.tenant == world.demo and memory.agent == world.demo_agent
    context = asgi_server.call(world.demo_key, "memory_context", {"scope": {"user_id": "alice"}, "query": "tables"})
    assert [item["id"] for item in context.data["items"]] == [written["memory_id"]]
    assert "<user_memory>" in context.data["rendered"]
    events = set(AuditEvent.objects.filter(tenant=world.demo, actor="agent:demo-agent").values_list("event", flat=True))
    assert {"memory_write_requested", "memory_write_approved", "memory_read", "memory_injected"} <= events


def test_a_rejected_write_is_a_normal_result_saying_why(asgi_server, world):
    called = asgi_server.call(world.demo_key, "memory_write", {**PREFERENCE, "content": SECRET})
    assert not called.error
    assert called.data["decision"] == "reject" and called.data["reason_code"] == "restricted_data"
    assert called.data["memory_id"] is None
    assert not Memory.objects.filter(tenant=world.demo).exists()
    rejected = AuditEvent.objects.get(tenant=world.demo, event="memory_write_rejected")
    assert "sk-proj" not in str(rejected.details)


def test_the_other_tenants_key_sees_and_changes_nothing_of_this_tenant(asgi_server, world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    acme = world.acme_key
    assert asgi_server.call(acme, "memory_list", {"user_id": "alice"}).data["results"] == []
    assert asgi_server.call(acme, "memory_context", {"scope": {"user_id": "alice"}}).data["items"] == []
    forget = asgi_server.call(acme, "memory_forget", {"memory_id": str(memory.id)})
    assert forget.error and "not_found: No such resource." in forget.text
    assert asgi_server.call(acme, "delete_memories", {"memory_ids": [str(memory.id)]}, query="?user_id=alice").data[
        "not_found"
    ] == [str(memory.id)]
    memory.refresh_from_db()
    assert memory.status == "active"


def test_a_read_only_key_is_shown_and_allowed_only_the_reading_tools(asgi_server, world):
    _client, key = agent_key_create(tenant=world.demo, name="reader", actor="test", scopes=READ_ONLY_SCOPES)
    names = {tool.name for tool in asgi_server.tools(key)}
    assert names == {
        "memory_context",
        "memory_list",
        "memory_used",
        "search_memory",
        "list_memories",
        "session_context",
        "task_state_get",
    }
    refused = asgi_server.call(key, "memory_write", PREFERENCE)
    assert refused.error and "insufficient_scope" in refused.text
    assert "memory.write" in refused.text
    assert not Memory.objects.exists()


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({**PREFERENCE, "scope": {"level": "everywhere", "user_id": "alice"}}, "scope.level"),
        ({**PREFERENCE, "confidence": 7}, "confidence"),
        ({**PREFERENCE, "content": "x" * 20_001}, "content"),
        ({**PREFERENCE, "source": {"source_type": "gossip"}}, "source.source_type"),
        ({key: value for key, value in PREFERENCE.items() if key != "scope"}, "scope"),
        ({**PREFERENCE, "scope": {"level": "user", "userid": "alice"}}, "scope.userid"),
    ],
)
def test_bad_input_is_a_tool_error_naming_the_field_and_stores_nothing(asgi_server, world, arguments, field):
    called = asgi_server.call(world.demo_key, "memory_write", arguments)
    assert called.error
    assert field in called.text
    assert not Memory.objects.exists()


def test_content_the_pipeline_finds_invalid_is_a_tool_error_naming_the_field(asgi_server, world):
    called = asgi_server.call(world.demo_key, "memory_write", {**PREFERENCE, "content": "   "})
    assert called.error and "invalid_candidate: content" in called.text


def test_a_request_without_a_valid_key_is_refused_before_mcp(asgi_server, world):
    url = f"{asgi_server.url}/mcp/"
    missing = httpx.post(url, json=INITIALIZE, headers=ACCEPT)
    assert missing.status_code == 401 and missing.json()["error"] == "not_authenticated"
    assert missing.headers["www-authenticate"].startswith("Bearer")
    wrong = httpx.post(url, json=INITIALIZE, headers={**ACCEPT, "Authorization": "Bearer mg_nope_nope"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "authentication_failed"
    agent_key_revoke(client=world.demo_agent, actor="test")
    revoked = httpx.post(url, json=INITIALIZE, headers={**ACCEPT, "Authorization": f"Bearer {world.demo_key}"})
    assert revoked.status_code == 401


def test_a_foreign_host_header_is_refused(asgi_server, world):
    headers = {**ACCEPT, "Authorization": f"Bearer {world.demo_key}", "Host": "evil.example"}
    response = httpx.post(f"{asgi_server.url}/mcp/", json=INITIALIZE, headers=headers)
    assert response.status_code == 421


def test_django_is_served_beside_mcp_by_the_same_entry_point(asgi_server, world):
    assert httpx.get(f"{asgi_server.url}/healthz").status_code == 200
    rest = httpx.post(
        f"{asgi_server.url}/api/v1/memories/write",
        json=PREFERENCE,
        headers={"Authorization": f"Bearer {world.demo_key}"},
    )
    assert rest.status_code == 200 and rest.json()["decision"] == "save"


def test_the_openmemory_tools_take_the_person_from_the_url(asgi_server, world):
    added = asgi_server.call(
        world.demo_key, "add_memories", {"text": PREFERENCE["content"], "explicit": True}, query="?user_id=alice"
    )
    assert [r["event"] for r in added.data["results"]] == ["ADD"]
    assert Memory.objects.get(pk=added.data["results"][0]["id"]).user_id == "alice"
    found = asgi_server.call(world.demo_key, "search_memory", {"query": "tables"}, query="?user_id=alice").data
    assert [r["memory"] for r in found["results"]] == [PREFERENCE["content"]]
    nobody = asgi_server.call(world.demo_key, "list_memories", {})
    assert nobody.error and "user_id" in nobody.text


def test_django_under_the_asgi_entry_point_keeps_its_database_connection(asgi_server, world):
    """As under a WSGI server: ten REST calls in a row open at most one connection, not one each."""
    from django.db.backends.signals import connection_created

    opened = []

    def count(sender, connection, **kwargs):
        opened.append(connection)

    connection_created.connect(count)
    try:
        with httpx.Client(base_url=asgi_server.url, headers={"Authorization": f"Bearer {world.demo_key}"}) as rest:
            for _ in range(10):
                assert rest.get("/api/v1/memories", params={"user_id": "alice"}).status_code == 200
    finally:
        connection_created.disconnect(count)
    assert len(opened) <= 1  # none when an earlier test left the thread its connection


def test_a_streamed_response_passes_through_the_asgi_entry_point(asgi_server, world, make_memory):
    make_memory(world.demo, "Prefers tables", user_id="alice")
    world.demo_agent.can_export_audit = True
    world.demo_agent.save(update_fields=["can_export_audit"])
    response = httpx.get(
        f"{asgi_server.url}/api/v1/audit/export", headers={"Authorization": f"Bearer {world.demo_key}"}
    )
    assert response.status_code == 200
    lines = [line for line in response.text.splitlines() if line]
    assert len(lines) >= 2 and '"manifest"' in lines[-1]


def test_session_tools_over_http_and_the_other_tenants_key(asgi_server, world):
    started = asgi_server.call(world.demo_key, "session_start", {"user_id": "alice", "app": "support"}).data
    turn = {"session_id": started["id"], "events": [{"kind": "user_message", "content": "Where is order 42?"}]}
    appended = asgi_server.call(world.demo_key, "session_append", turn).data
    assert appended["events"][0]["seq"] == 1
    context = asgi_server.call(world.demo_key, "session_context", {"session_id": started["id"]}).data
    assert [m["content"] for m in context["messages"]] == ["Where is order 42?"]
    other = asgi_server.call(world.acme_key, "session_context", {"session_id": started["id"]})
    assert other.error and "not_found: No such resource." in other.text
    assert asgi_server.call(world.acme_key, "session_append", turn).error
