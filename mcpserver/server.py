"""The MCP server: memgov's tools on the SDK's ``MCPServer``, listing to each key only what it may call."""

from __future__ import annotations

from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ListToolsResult, PaginatedRequestParams

from governance.scopes import scope_for_tool
from mcpserver import tools_handoffs, tools_memory, tools_openmemory, tools_sessions
from mcpserver.calls import Binding, agent_for, binding_for, in_thread

INSTRUCTIONS = """memgov governs what you remember about people. Before you answer, call memory_context for the
person and insert its `rendered` block. When they tell you something worth keeping, call memory_write and say
honestly where it came from; memgov decides (save, ask_confirmation or reject) and tells you why. Never put
secrets, passwords or id numbers in a memory: they are refused. When they ask you to forget something, call
memory_forget. Record the conversation with session_start and session_append; session_context gives the
history for your next model call, task_state_get / task_state_update a task's structured state; handoff_create
hands a task to another agent, which reads it with handoff_get."""


class GovernedMCPServer(MCPServer):
    """``tools/list`` shows a key the tools its scopes allow (deny by default: a tool no scope names is
    never listed, and a call to one is refused in mcpserver/calls.py all the same)."""

    def __init__(self, *, fallback: Binding | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fallback = fallback

    async def _handle_list_tools(
        self, ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        binding = binding_for(Context(request_context=ctx, mcp_server=self), self.fallback)
        client = await in_thread(agent_for, binding=binding)
        tools = [tool for tool in await self.list_tools() if scope_for_tool(tool.name) in client.scopes]
        return ListToolsResult(tools=tools)


def build_server(*, fallback: Binding | None = None) -> GovernedMCPServer:
    """The server with every tool. ``fallback`` speaks for a connection that has no HTTP request of its own:
    stdio (``manage.py mcp_stdio``) and the SDK's in-process client in tests."""
    server = GovernedMCPServer(name="memgov", instructions=INSTRUCTIONS, version="1", fallback=fallback)
    tools_memory.register(server, fallback)
    tools_openmemory.register(server, fallback)
    tools_sessions.register(server, fallback)
    tools_handoffs.register(server, fallback)
    return server
