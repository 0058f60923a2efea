"""Over MCP, an agent the person switched off gets what REST gives it: memory_context and search_memory return
nothing of theirs, memory_write and add_memories are rejected with ``subject_blocked_agent``, the lists are
empty and delete_all_memories is refused — and all of it works again once the person switches it back on."""

from __future__ import annotations

from audit.models import AuditEvent
from memories.models import Memory
from memories.services.agent_access import agent_access_set

SCOPE = {"level": "user", "user_id": "alice"}
ASKED = {"source_type": "explicit_user_request"}


def switch(world, *, blocked: bool) -> None:
    agent_access_set(
        tenant_id=world.demo.pk, user_id="alice", agent_id=world.demo_agent.pk, blocked=blocked, actor="user:alice"
    )


def test_the_memory_tools_honour_the_switch(world, make_memory, mcp_call):
    memory = make_memory(world.demo, "Prefers answers as tables.", user_id="alice")
    key = world.demo_key
    assert mcp_call(key, "memory_context", {"scope": {"user_id": "alice"}, "query": "tables"}).data["items"]
    switch(world, blocked=True)
    context = mcp_call(key, "memory_context", {"scope": {"user_id": "alice"}, "query": "tables"}).data
    assert context["items"] == [] and context["rendered"] == ""
    charts = {"content": "Remember that I like charts.", "scope": SCOPE, "source": ASKED}
    written = mcp_call(key, "memory_write", charts)
    assert written.data["decision"] == "reject" and written.data["reason_code"] == "subject_blocked_agent"
    assert mcp_call(key, "memory_list", {"user_id": "alice"}).data["count"] == 0
    assert mcp_call(key, "memory_forget", {"memory_id": str(memory.pk)}).error
    assert Memory.objects.get(pk=memory.pk).status == "active"
    switch(world, blocked=False)
    assert [i["id"] for i in mcp_call(key, "memory_context", {"scope": {"user_id": "alice"}}).data["items"]] == [
        str(memory.pk)
    ]


def test_the_openmemory_tools_honour_it_too(world, make_memory, mcp_call):
    make_memory(world.demo, "Prefers answers as tables.", user_id="alice")
    key = world.demo_key
    switch(world, blocked=True)
    assert mcp_call(key, "search_memory", {"query": "tables"}, subject="alice").data["results"] == []
    assert mcp_call(key, "list_memories", {}, subject="alice").data["results"] == []
    added = mcp_call(key, "add_memories", {"text": "Remember that I like charts.", "explicit": True}, subject="alice")
    assert added.data["results"] == [] and added.data["reason_code"] == "subject_blocked_agent"
    refused = mcp_call(key, "delete_all_memories", {}, subject="alice")
    assert refused.error and "subject_blocked_agent" in refused.text
    assert Memory.objects.filter(user_id="alice", status="active").count() == 1
    # bob's memories, through the same agent, are untouched by alice's switch.
    make_memory(world.demo, "Prefers tables too.", user_id="bob")
    assert mcp_call(key, "search_memory", {"query": "tables"}, subject="bob").data["results"]
    switch(world, blocked=False)
    assert mcp_call(key, "search_memory", {"query": "tables"}, subject="alice").data["results"]


def test_memory_used_is_refused_for_a_switched_off_agent_and_the_refusal_audited(world, make_memory, mcp_call):
    memory = make_memory(world.demo, "Prefers answers as tables.", user_id="alice")
    key = world.demo_key
    items = mcp_call(key, "memory_context", {"scope": {"user_id": "alice"}, "query": "tables"}).data["items"]
    cited = [item["citation_id"] for item in items]
    switch(world, blocked=True)
    refused = mcp_call(key, "memory_used", {"citation_ids": cited})
    assert refused.error and "subject_blocked_agent" in refused.text
    assert Memory.objects.get(pk=memory.pk).cited_count == 0
    audited = AuditEvent.objects.get(reason_code="subject_blocked_agent", event="memory_read", subject_id="alice")
    assert set(audited.details) == {"read_ids"} and audited.agent_version == world.demo_agent.name
    # Another tenant's agent learns nothing of the switch: to it the citations don't exist.
    foreign = mcp_call(world.acme_key, "memory_used", {"citation_ids": cited})
    assert foreign.error and "no such citation" in foreign.text and "subject_blocked_agent" not in foreign.text
    switch(world, blocked=False)
    assert mcp_call(key, "memory_used", {"citation_ids": cited}).data == {"recorded": 1, "repeated": 0}
