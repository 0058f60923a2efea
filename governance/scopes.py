"""Agent key scopes: which REST endpoints and MCP tools each scope lets a key call.

One table serves three readers: the API's permission check (api/scopes.py), the MCP server's tool check
(mcpserver/), and the console page where an admin grants scopes. Whatever is not in the table is denied
to every agent key: a new endpoint or tool is unreachable until it is given a scope here.

Endpoints are written as ``METHOD /path`` with ``{name}`` for a path parameter; the name does not matter
when an endpoint is looked up (``/memories/{id}`` and ``<uuid:memory_id>`` are the same route).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from governance.vocabulary import READ_ONLY_SCOPES, AgentScope


@dataclass(frozen=True)
class ScopeGrant:
    scope: AgentScope
    label: str | Promise
    endpoints: tuple[str, ...]
    tools: tuple[str, ...]


SCOPE_TABLE: tuple[ScopeGrant, ...] = (
    ScopeGrant(
        AgentScope.MEMORY_READ,
        _("Read memory: the ranked context for a prompt, a person's memories, one memory"),
        (
            "POST /api/v1/memories/context",
            "GET /api/v1/memories",
            "GET /api/v1/memories/{id}",
            "POST /api/v1/memories/used",
        ),
        ("memory_context", "memory_list", "memory_used", "search_memory", "list_memories"),
    ),
    ScopeGrant(
        AgentScope.MEMORY_WRITE,
        _("Propose memories; the write pipeline still decides what is kept"),
        ("POST /api/v1/memories/write",),
        ("memory_write", "add_memories"),
    ),
    ScopeGrant(
        AgentScope.MEMORY_MANAGE,
        _("Change a person's memories: edit, pause, resume, roll back, delete, commands, finish a task"),
        (
            "PATCH /api/v1/memories/{id}",
            "DELETE /api/v1/memories/{id}",
            "POST /api/v1/memories/{id}/pause",
            "POST /api/v1/memories/{id}/resume",
            "POST /api/v1/memories/{id}/rollback",
            "POST /api/v1/commands",
            "POST /api/v1/tasks/{task_id}/complete",
        ),
        ("memory_forget", "delete_memories", "delete_all_memories"),
    ),
    ScopeGrant(
        AgentScope.MEMORY_CONFIRM,
        _("Settle a pending memory on the person's word"),
        ("POST /api/v1/confirmations/{id}/accept", "POST /api/v1/confirmations/{id}/decline"),
        ("memory_confirm",),
    ),
    ScopeGrant(
        AgentScope.SESSIONS_READ,
        _("Read sessions: their events, state, projection and task state"),
        (
            "GET /api/v1/sessions",
            "GET /api/v1/sessions/{id}",
            "GET /api/v1/sessions/{id}/events",
            "GET /api/v1/sessions/{id}/state",
            "POST /api/v1/sessions/{id}/context",
            "GET /api/v1/tasks/{task_id}",
        ),
        ("session_context", "task_state_get"),
    ),
    ScopeGrant(
        AgentScope.SESSIONS_WRITE,
        _("Record sessions: create, append events, fork, pop, compact, end, delete, task state, hand off"),
        (
            "POST /api/v1/sessions",
            "PATCH /api/v1/sessions/{id}",
            "DELETE /api/v1/sessions/{id}",
            "POST /api/v1/sessions/{id}/events",
            "POST /api/v1/sessions/{id}/pop",
            "POST /api/v1/sessions/{id}/fork",
            "POST /api/v1/sessions/{id}/compact",
            "PUT /api/v1/tasks/{task_id}",
            "POST /api/v1/handoffs",
        ),
        ("session_start", "session_append", "task_state_update", "handoff_create"),
    ),
    ScopeGrant(
        AgentScope.HANDOFFS_READ,
        _("Receive handoffs: the task state and memories another agent handed to this key, and nothing else"),
        ("GET /api/v1/handoffs/{id}",),
        ("handoff_get",),
    ),
)

# Endpoints an agent key reaches by a right of its own rather than a scope: the audit export asks for the
# key's can_export_audit, which only an operator sets.
OWN_RIGHT_ENDPOINTS: tuple[str, ...] = ("GET /api/v1/audit/export",)

_PARAMETER = re.compile(r"\{[^}]*\}|<[^>]*>")


def _route_key(method: str, path: str) -> tuple[str, str]:
    """``("GET", "api/v1/memories/{}")`` for ``GET /api/v1/memories/{id}`` or ``api/v1/memories/<uuid:x>``."""
    return method.upper(), _PARAMETER.sub("{}", path.strip("/"))


_BY_ENDPOINT: dict[tuple[str, str], AgentScope] = {
    _route_key(*endpoint.split(" ", 1)): grant.scope for grant in SCOPE_TABLE for endpoint in grant.endpoints
}
_BY_TOOL: dict[str, AgentScope] = {tool: grant.scope for grant in SCOPE_TABLE for tool in grant.tools}
_OWN_RIGHT = {_route_key(*endpoint.split(" ", 1)) for endpoint in OWN_RIGHT_ENDPOINTS}


class ScopeLookup:
    """Outcomes of an endpoint lookup besides a scope."""

    OWN_RIGHT = "own_right"


def scope_for_endpoint(*, method: str, route: str) -> AgentScope | str | None:
    """The scope an agent needs for this method and route, ``ScopeLookup.OWN_RIGHT``, or None (denied).

    HEAD is GET's; OPTIONS (DRF's description of an endpoint, no data) needs the scope of any method.
    """
    method = "GET" if method.upper() == "HEAD" else method.upper()
    if method == "OPTIONS":
        path = _route_key("GET", route)[1]
        scopes = [scope for (_m, p), scope in _BY_ENDPOINT.items() if p == path]
        return scopes[0] if scopes else None
    key = _route_key(method, route)
    if key in _OWN_RIGHT:
        return ScopeLookup.OWN_RIGHT
    return _BY_ENDPOINT.get(key)


def scope_for_tool(name: str) -> AgentScope | None:
    """The scope an agent needs to call this MCP tool; None for a tool no scope grants (denied)."""
    return _BY_TOOL.get(name)


def scopes_granted(values: Iterable[str]) -> frozenset[AgentScope]:
    """The known scopes among a key's stored values (an unknown one grants nothing)."""
    known = {scope.value for scope in AgentScope}
    return frozenset(AgentScope(value) for value in values if value in known)


def is_read_only(scopes: Iterable[str]) -> bool:
    granted = scopes_granted(scopes)
    return bool(granted) and granted <= READ_ONLY_SCOPES
