"""The MCP server: memgov's tools for agents over MCP (streamable HTTP at ``/mcp/``, and stdio).

Every tool calls the same services, selectors and access rules as the REST API, with the same tenant from
the key, the same scopes (governance/scopes.py), the same pipeline and the same audit. Not named ``mcp``,
which is the SDK's package.

A surface beside ``api``, ``console`` and ``mymemories``: it may import ``conversations``, ``memories``, ``governance``,
``audit``, ``vault`` and ``dbkit``, never another surface; ``config.asgi`` mounts it.
"""
