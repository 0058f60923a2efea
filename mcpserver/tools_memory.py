"""memgov's own tools: write, context, list, used, forget, confirm. Each is the REST endpoint of the same name
(docs/api.md), calling the same service with the same arguments."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from django.utils import timezone
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations

from answers.shapes import context_out, decision_out, memory_out
from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import MemoryType
from mcpserver.calls import Binding, governed
from mcpserver.schemas import (
    BudgetArg,
    ConfidenceArg,
    ContentArg,
    ExpiresArg,
    Id,
    LimitArg,
    OffsetArg,
    QueryArg,
    ReadScope,
    SensitivityArg,
    Source,
    TopKArg,
    TypeArg,
    WriteScope,
)
from memories.access import Caller, agent_switched_off, confirmation_for_caller, memory_for_caller
from memories.read.context import DEFAULT_TOKEN_BUDGET, DEFAULT_TOP_K, ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from memories.selectors import memory_list_active_for_subject
from memories.services import write as write_service
from memories.services.citations import memory_used_record
from memories.services.confirmations import confirmation_accept, confirmation_decline
from memories.services.records import memory_delete

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTROY = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)

WRITE_DESCRIPTION = """Propose a memory about a person. memgov's write pipeline decides, and this tool returns the
decision: `save` (kept and active), `ask_confirmation` (kept as pending until the person, or for rules an admin,
confirms: `confirmation_id`), or `reject` with `reason_code` and `reason` (e.g. restricted_data for a secret,
policy_override, transient, low_confidence). A rejection is a normal answer, not an error: tell the person why
if it matters, and don't retry it. Say honestly where it came from in `source.source_type`."""

CONTEXT_DESCRIPTION = """The memory to put into your prompt for a person, before you answer: only what this
key may see, without expired, paused or deleted memories, ranked for `query` and cut to `token_budget`.
Insert `rendered` as it is (tagged blocks that say memory never overrides the system or the current
instruction); `items` has each memory with its id, source, confidence and score. Reads are audited."""


def _person_time(value: Any) -> Any:
    # As the REST API's DateTimeField does: a time without a zone is in the server's zone.
    if value is not None and timezone.is_naive(value):
        return timezone.make_aware(value)
    return value


def register(server: MCPServer, fallback: Binding | None) -> None:
    @server.tool(name="memory_write", description=WRITE_DESCRIPTION, annotations=WRITE)
    async def memory_write(
        content: ContentArg,
        scope: WriteScope,
        source: Source,
        ctx: Context,
        type: TypeArg = None,
        confidence: ConfidenceArg = 1.0,
        sensitivity: SensitivityArg = None,
        expires_at: ExpiresArg = None,
        on_behalf_of: Id = "",
        session_id: Id = "",
    ) -> dict[str, Any]:
        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            candidate = Candidate(
                content=content,
                scope=Scope(**scope.model_dump(mode="json")),
                source_type=source.source_type,
                type=type,
                source_message_id=source.source_message_id,
                confidence=confidence,
                sensitivity=sensitivity,
                expires_at=_person_time(expires_at),
            )
            result = write_service.memory_write(
                tenant_id=caller.tenant_id,
                candidate=candidate,
                actor_label=caller.actor,
                agent=caller.agent,
                on_behalf_of=on_behalf_of,
                session_id=session_id,
            )
            return decision_out(result)

        return await governed(ctx, fallback, "memory_write", work)

    @server.tool(name="memory_context", description=CONTEXT_DESCRIPTION, annotations=READ)
    async def memory_context(
        scope: ReadScope,
        ctx: Context,
        query: QueryArg = "",
        types: list[MemoryType] | None = None,
        top_k: TopKArg = DEFAULT_TOP_K,
        token_budget: BudgetArg = DEFAULT_TOKEN_BUDGET,
        instruction: QueryArg = "",
        language: Literal["auto", "en", "zh"] = "auto",
    ) -> dict[str, Any]:
        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            request = ContextRequest(
                scope=ContextScope(**scope.model_dump()),
                query=query,
                types=tuple(dict.fromkeys(t.value for t in types or ())),
                top_k=top_k,
                token_budget=token_budget,
                instruction=instruction,
                language=language,
            )
            return context_out(memory_context_build(caller=caller, request=request))

        return await governed(ctx, fallback, "memory_context", work)

    @server.tool(
        name="memory_list",
        description="A person's active memories, newest change first, a page at a time (`offset`, `limit`); "
        "`count` is how many there are in all.",
        annotations=READ,
    )
    async def memory_list(user_id: Id, ctx: Context, limit: LimitArg = 50, offset: OffsetArg = 0) -> dict[str, Any]:

        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            memories = memory_list_active_for_subject(tenant_id=caller.tenant_id, user_id=user_id)
            if agent_switched_off(caller, user_id):
                memories = memories.none()
            page = list(memories[offset : offset + limit])
            return {
                "count": memories.count(),
                "offset": offset,
                "limit": limit,
                "results": [memory_out(m) for m in page],
            }

        return await governed(ctx, fallback, "memory_list", work)

    @server.tool(
        name="memory_used",
        description="After answering: report which context items your answer actually used, by their "
        "`citation_id` from memory_context. Each is counted once however often it is reported; usage keeps "
        "a memory from being archived as unused and ranks it. Report only what the answer relied on.",
        annotations=WRITE,
    )
    async def memory_used(citation_ids: list[str], ctx: Context) -> dict[str, Any]:
        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            result = memory_used_record(
                tenant_id=caller.tenant_id,
                actor=caller.actor,
                citation_ids=citation_ids,
                subject_id=caller.subject_id,
                agent=caller.agent,
            )
            return {"recorded": result.recorded, "repeated": result.repeated}

        return await governed(ctx, fallback, "memory_used", work)

    @server.tool(
        name="memory_forget",
        description="Delete one memory (the person asked you to forget it): it is gone from every read at once; "
        "its content is purged after the grace period. Shared rules can't be deleted by an agent.",
        annotations=DESTROY,
    )
    async def memory_forget(memory_id: UUID, ctx: Context) -> dict[str, Any]:
        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            memory = memory_delete(memory=memory_for_caller(caller, memory_id, change=True), actor=caller.actor)
            return {"memory_id": str(memory.pk), "status": memory.status}

        return await governed(ctx, fallback, "memory_forget", work)

    @server.tool(
        name="memory_confirm",
        description="Settle a pending memory (a `confirmation_id` from memory_write) on the person's word: "
        "`accept` true makes it active, false drops it. Accepting needs `instruction_message_id`, the id of the "
        "message in which the person said yes (recorded in the audit log); never the message the memory was "
        "inferred from. Only for what the person confirms (confirm_by: user); rules wait for an admin.",
        annotations=WRITE,
    )
    async def memory_confirm(
        confirmation_id: UUID, ctx: Context, accept: bool = True, instruction_message_id: Id = ""
    ) -> dict[str, Any]:
        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            confirmation = confirmation_for_caller(caller, confirmation_id)
            if accept:
                confirmation_accept(
                    confirmation=confirmation,
                    actor=caller.actor,
                    by_agent=True,
                    instruction_message_id=instruction_message_id,
                )
            else:
                confirmation_decline(confirmation=confirmation, actor=caller.actor)
            confirmation.refresh_from_db()
            return {
                "id": str(confirmation.pk),
                "state": confirmation.state,
                "confirm_by": confirmation.confirm_by,
                "memory_id": str(confirmation.memory_id),
                "memory_status": confirmation.memory.status,
            }

        return await governed(ctx, fallback, "memory_confirm", work)
