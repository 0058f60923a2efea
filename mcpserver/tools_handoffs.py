"""Handoff tools (§15): hand a task to another agent, and read what was handed to you. Each is the REST
endpoint of the same job (POST /api/v1/handoffs, GET /api/v1/handoffs/{id}), calling the same handoffs
service, so what crosses, the scopes, the errors and the audit events are the REST API's."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from django.http import Http404
from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from answers.shapes import handoff_out
from conversations.access import session_for_caller
from handoffs.selectors import handoff_for_receiver
from handoffs.services import handoff_create, handoff_receive
from mcpserver.calls import Binding, governed
from mcpserver.schemas import Id
from mcpserver.tools_memory import READ, WRITE
from memories.access import Caller

AgentName = Annotated[str, Field(min_length=1, max_length=100, description="the receiving agent key's name")]

CREATE_DESCRIPTION = """Hand a task of a session to another agent of your tenant (`to_agent`, its key's name): it
receives the task's state and the memories allowed to cross (the task's state and tool-result references, the
person's confirmed preferences, approved rules), never the conversation's history, unconfirmed inferences or
sensitive text. Answers the handoff's `id`, which the receiving agent passes to handoff_get."""

GET_DESCRIPTION = """A task another agent handed to you (`handoff_id` from its handoff_create): the task's state
and the memories that crossed, re-checked now (deleted, paused or expired ones are left out). Only the agent it
was handed to may read it."""


def register(server: MCPServer, fallback: Binding | None) -> None:
    @server.tool(name="handoff_create", description=CREATE_DESCRIPTION, annotations=WRITE)
    async def handoff_create_tool(session_id: UUID, task_id: Id, to_agent: AgentName, ctx: Context) -> dict[str, Any]:
        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            session = session_for_caller(caller, session_id)
            return handoff_out(handoff_create(caller=caller, session=session, task_id=task_id, to_agent=to_agent))

        return await governed(ctx, fallback, "handoff_create", work)

    @server.tool(name="handoff_get", description=GET_DESCRIPTION, annotations=READ)
    async def handoff_get(handoff_id: UUID, ctx: Context) -> dict[str, Any]:
        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            handoff = handoff_for_receiver(caller=caller, handoff_id=str(handoff_id))
            if handoff is None:
                raise Http404
            return handoff_out(handoff_receive(caller=caller, handoff=handoff))

        return await governed(ctx, fallback, "handoff_get", work)
