"""Tools with the names and arguments of Mem0's OpenMemory MCP server (``add_memories(text)``,
``search_memory(query)``, ``list_memories()``, ``delete_memories(memory_ids)``, ``delete_all_memories()``), so
a client configured for OpenMemory works unchanged — and governed: every write goes through the pipeline.

OpenMemory takes the person from its URL; here the subject is the ``?user_id=`` of the MCP URL (or
``MEMGOV_USER_ID`` for stdio), and each tool also takes an optional ``user_id``.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from answers.shapes import decision_out
from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import DecisionKind, Level, SourceType
from mcpserver.calls import Binding, governed, subject_for
from mcpserver.schemas import MAX_TEXT, TopKArg
from mcpserver.tools_memory import DESTROY, READ, WRITE
from memories.access import SWITCHED_OFF_DETAIL, Caller, agent_switched_off
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from memories.selectors import memory_list_active_for_subject
from memories.services.bulk import memory_delete_all_for_subject, memory_delete_listed
from memories.services.write import memory_write

UserArg = Annotated[str | None, Field(max_length=128, description="the person; default: the one the URL names")]
MAX_LISTED = 500  # as the REST list's largest page


def _dated(memory: Any) -> dict[str, Any]:
    return {
        "id": str(memory.pk),
        "memory": memory.content,
        "type": memory.type,
        "created_at": memory.created_at.isoformat(),
        "updated_at": memory.updated_at.isoformat(),
    }


def register(server: MCPServer, fallback: Binding | None) -> None:
    @server.tool(
        name="add_memories",
        description="Add a new memory. Call this whenever the person tells you something about themselves, their "
        "preferences, or anything useful in future conversations, or asks you to remember something (then set "
        "`explicit`). memgov decides what is kept: `results` lists what was stored; otherwise `decision` and "
        "`reason` say why not (pending until the person confirms, or rejected, e.g. a secret).",
        annotations=WRITE,
    )
    async def add_memories(
        text: Annotated[str, Field(max_length=20_000)],
        ctx: Context,
        user_id: UserArg = None,
        explicit: Annotated[bool, Field(description="the person asked you to remember it")] = False,
    ) -> dict[str, Any]:
        def work(caller: Caller, binding: Binding) -> dict[str, Any]:
            subject = subject_for(binding, user_id)
            source = SourceType.EXPLICIT_USER_REQUEST if explicit else SourceType.USER_STATEMENT
            result = memory_write(
                tenant_id=caller.tenant_id,
                candidate=Candidate(content=text, scope=Scope(Level.USER, user_id=subject), source_type=source),
                actor_label=caller.actor,
                agent=caller.agent,
            )
            stored = result.decision.kind == DecisionKind.SAVE and result.memory is not None
            event = "NONE" if result.decision.deduplicated else "ADD"
            results = [{"id": str(result.memory.pk), "memory": text, "event": event}] if stored else []
            return {"results": results, **decision_out(result)}

        return await governed(ctx, fallback, "add_memories", work)

    @server.tool(
        name="search_memory",
        description="Search the person's memories. Call this every time the person asks anything. Returns the "
        "memories this key may see, ranked for the query (expired, paused and deleted ones never appear).",
        annotations=READ,
    )
    async def search_memory(
        query: Annotated[str, Field(max_length=MAX_TEXT)],
        ctx: Context,
        user_id: UserArg = None,
        limit: TopKArg = 10,
    ) -> dict[str, Any]:
        def work(caller: Caller, binding: Binding) -> dict[str, Any]:
            subject = subject_for(binding, user_id)
            result = memory_context_build(
                caller=caller, request=ContextRequest(scope=ContextScope(user_id=subject), query=query, top_k=limit)
            )
            return {
                "results": [
                    {
                        "id": str(item.id),
                        "memory": item.content,
                        "type": item.type,
                        "updated_at": item.updated_at.isoformat(),
                        "score": item.score,
                    }
                    for item in result.items
                ]
            }

        return await governed(ctx, fallback, "search_memory", work)

    @server.tool(
        name="list_memories",
        description="List the person's active memories, newest change first (at most 500).",
        annotations=READ,
    )
    async def list_memories(ctx: Context, user_id: UserArg = None) -> dict[str, Any]:
        def work(caller: Caller, binding: Binding) -> dict[str, Any]:
            subject = subject_for(binding, user_id)
            memories = memory_list_active_for_subject(tenant_id=caller.tenant_id, user_id=subject)
            if agent_switched_off(caller, subject):
                memories = memories.none()
            return {"results": [_dated(m) for m in memories[:MAX_LISTED]]}

        return await governed(ctx, fallback, "list_memories", work)

    @server.tool(
        name="delete_memories",
        description="Delete the person's memories with these ids. Ids that aren't theirs, or don't exist, are "
        "listed under `not_found` and nothing is done with them.",
        annotations=DESTROY,
    )
    async def delete_memories(
        memory_ids: Annotated[list[UUID], Field(min_length=1, max_length=500)], ctx: Context, user_id: UserArg = None
    ) -> dict[str, Any]:
        def work(caller: Caller, binding: Binding) -> dict[str, Any]:
            subject = subject_for(binding, user_id)
            done = memory_delete_listed(caller=caller, memory_ids=memory_ids, user_id=subject)
            return {
                "deleted": [str(m.pk) for m in done.deleted],
                "not_found": list(done.missing),
                "message": f"Successfully deleted {len(done.deleted)} memories",
            }

        return await governed(ctx, fallback, "delete_memories", work)

    @server.tool(
        name="delete_all_memories",
        description="Delete all of the person's memories (active, paused and pending); shared rules stay.",
        annotations=DESTROY,
    )
    async def delete_all_memories(ctx: Context, user_id: UserArg = None) -> dict[str, Any]:
        def work(caller: Caller, binding: Binding) -> dict[str, Any]:
            subject = subject_for(binding, user_id)
            if agent_switched_off(caller, subject):
                raise ToolError(f"subject_blocked_agent: {SWITCHED_OFF_DETAIL}")
            deleted = memory_delete_all_for_subject(tenant_id=caller.tenant_id, user_id=subject, actor=caller.actor)
            return {"deleted": len(deleted), "message": "Successfully deleted all memories"}

        return await governed(ctx, fallback, "delete_all_memories", work)
