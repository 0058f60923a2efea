"""Streamable HTTP at ``/mcp/``: the agent key as Bearer, checked on every request before the MCP layer.

Stateless (no ``Mcp-Session-Id``): every POST stands alone, so any web process can answer any request and
nothing is lost when one restarts. Replies are plain JSON rather than an SSE stream: no tool streams.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import parse_qs

from django.conf import settings
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import Receive, Scope, Send

from governance.agents import client_for_key
from mcpserver.calls import AGENT_STATE, SUBJECT_STATE, in_thread
from mcpserver.server import build_server


def _security() -> TransportSecuritySettings:
    """Host checks as Django's ALLOWED_HOSTS (the DNS-rebinding guard the SDK recommends)."""
    hosts = [h for h in settings.ALLOWED_HOSTS if h != "*"]
    if "*" in settings.ALLOWED_HOSTS:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    allowed = [pattern for host in hosts for pattern in (host.lstrip("."), f"{host.lstrip('.')}:*")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=allowed, allowed_origins=[])


async def _refuse(send: Send, status: int, error: str, detail: str) -> None:
    body = json.dumps({"error": error, "detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="memgov"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class McpHttpApp:
    """The ASGI app ``config.asgi`` mounts at ``/mcp``. Its ``lifespan`` must run while it serves."""

    def __init__(self) -> None:
        self.manager = StreamableHTTPSessionManager(
            app=build_server()._lowlevel_server,
            json_response=True,
            stateless=True,
            security_settings=_security(),
        )

    @asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        async with self.manager.run():
            yield

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        header = dict(scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
        kind, _sep, key = header.partition(" ")
        if kind != "Bearer" or not key.strip():
            await _refuse(send, 401, "not_authenticated", "Use 'Authorization: Bearer <agent key>'.")
            return
        client = await in_thread(client_for_key, key=key.strip())
        if client is None:
            await _refuse(send, 401, "authentication_failed", "Unknown or revoked agent key.")
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        subject = (query.get("user_id") or [""])[0][:128]
        scope = {**scope, "state": {**scope.get("state", {}), AGENT_STATE: client, SUBJECT_STATE: subject}}
        await self.manager.handle_request(scope, receive, send)
