"""How a tool call reaches the services: whose key it is, whether its scopes allow the tool, and the same
errors the REST API gives, as tool errors an agent can read.

The services are synchronous Django code. Each call runs on a small pool of threads that keep their
database connection between calls (as a WSGI worker's threads do), with Django's request-boundary
connection checks around it, so a call neither opens a connection each time nor keeps a broken one.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import close_old_connections
from django.http import Http404
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from conversations.services.errors import SessionInputError, SessionStateError
from governance.agents import client_for_key
from governance.models import AgentClient
from governance.pipeline.base import InvalidCandidate
from governance.scopes import scope_for_tool
from memories.access import SWITCHED_OFF_DETAIL, Caller, caller_for_agent
from memories.services.citations import CitationError, UseRefused
from memories.services.confirmations import ConfirmationError, ConsentRequired
from memories.services.records import MemoryStateError

T = TypeVar("T")

# Bound like a WSGI server's threads: each holds at most one database connection.
_POOL = ThreadPoolExecutor(max_workers=int(os.environ.get("MEMGOV_MCP_THREADS", "8")), thread_name_prefix="mcp")


@dataclass(frozen=True)
class Binding:
    """Who a connection speaks for: the agent its HTTP request authenticated, or (stdio) the key itself,
    looked up on every call so that a revoked key stops at once. ``subject`` is the default ``user_id``
    of the OpenMemory-style tools, which take none."""

    agent: AgentClient | None = None
    key: str = ""
    subject: str = ""


# scope["state"] keys the HTTP layer sets for each request (mcpserver/http.py).
AGENT_STATE = "memgov.agent"
SUBJECT_STATE = "memgov.subject"


def binding_for(ctx: Context, fallback: Binding | None) -> Binding:
    try:
        request = ctx.request_context.request
    except ValueError:  # no request at all: stdio or the in-process client
        request = None
    state = getattr(request, "scope", {}).get("state", {}) if request is not None else {}
    if AGENT_STATE in state:
        return Binding(agent=state[AGENT_STATE], subject=state.get(SUBJECT_STATE, ""))
    if fallback is not None:
        return fallback
    raise ToolError("not_authenticated: send 'Authorization: Bearer <agent key>'.")


async def in_thread(fn: Callable[..., T], /, **kwargs: Any) -> T:
    return await asyncio.get_running_loop().run_in_executor(_POOL, functools.partial(_request_bounds, fn, kwargs))


def _request_bounds(fn: Callable[..., T], kwargs: dict[str, Any]) -> T:
    close_old_connections()  # what Django does at request_started and request_finished
    try:
        return fn(**kwargs)
    finally:
        close_old_connections()


def agent_for(binding: Binding) -> AgentClient:
    client = binding.agent if binding.agent is not None else client_for_key(binding.key)
    if client is None or not client.is_active:
        raise ToolError("not_authenticated: Unknown or revoked agent key.")
    return client


def require_scope(client: AgentClient, tool: str) -> None:
    needed = scope_for_tool(tool)
    if needed is None:
        raise ToolError(f"insufficient_scope: no agent key may call {tool}.")
    if needed not in client.scopes:
        raise ToolError(f"insufficient_scope: this agent key lacks the scope {needed}, which {tool} needs.")


def subject_for(binding: Binding, user_id: str | None) -> str:
    subject = user_id or binding.subject
    if not subject:
        raise ToolError(
            "invalid_request: user_id: name the subject, or connect with ?user_id=… on the MCP URL "
            "(MEMGOV_USER_ID for stdio)."
        )
    return subject


def _governed(*, binding: Binding, tool: str, work: Callable[[Caller], T]) -> T:
    client = agent_for(binding)
    require_scope(client, tool)
    try:
        return work(caller_for_agent(client))
    except InvalidCandidate as exc:
        raise ToolError(f"invalid_candidate: {exc.field}: {exc.message}") from exc
    except Http404 as exc:
        raise ToolError("not_found: No such resource.") from exc
    except MemoryStateError as exc:
        raise ToolError(f"invalid_state: {exc}") from exc
    except SessionInputError as exc:
        raise ToolError(f"invalid_request: {exc.field}: {exc.message}") from exc
    except SessionStateError as exc:
        raise ToolError(f"{exc.code}: {exc.message}") from exc
    except ConsentRequired as exc:
        raise ToolError(f"consent_required: {exc.field}: {exc}") from exc
    except ConfirmationError as exc:
        raise ToolError(f"confirmation_closed: {exc}") from exc
    except CitationError as exc:
        raise ToolError(f"invalid_request: {exc.field}: {exc.message}") from exc
    except UseRefused as exc:
        raise ToolError(f"{exc.reason_code}: {SWITCHED_OFF_DETAIL}") from exc


async def governed(ctx: Context, fallback: Binding | None, tool: str, work: Callable[[Caller, Binding], T]) -> T:
    """Run ``work`` for the calling agent once its key and scope are checked, mapping refusals to tool errors."""
    binding = binding_for(ctx, fallback)
    return await in_thread(_governed, binding=binding, tool=tool, work=lambda caller: work(caller, binding))
