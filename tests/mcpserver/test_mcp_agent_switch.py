"""Over MCP, an agent the person switched off gets what REST gives it: memory_context and search_memory return
nothing of theirs, memory_write and add_memories are rejected with ``subject_blocked_agent``, the lists are
empty and delete_all_memories is refused — and all of it works again once the person switches it back on."""

from __future__ import annotations

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
