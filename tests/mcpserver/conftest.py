"""MCP fixtures: the SDK's own client, in process (``mcp_call``) and over streamable HTTP against the real ASGI
entry point (``config.asgi``) served by uvicorn in a thread (``asgi_server``).

The tools run their database work on other threads than the test's, so these tests use a transactional
database (what the test creates is committed and seen by those threads).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest
import uvicorn
from async_run import run as run_async
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from mcpserver.calls import Binding
from mcpserver.server import build_server


@dataclass
class Called:
    """One tool call's result, with what tests look at."""

    result: CallToolResult

    @property
    def error(self) -> bool:
        return bool(self.result.is_error)

    @property
    def data(self) -> dict[str, Any]:
        assert not self.result.is_error, self.text
        return self.result.structured_content or {}

    @property
    def text(self) -> str:
        return "".join(getattr(part, "text", "") for part in self.result.content)


async def _call(client: Client, tool: str, arguments: dict[str, Any]) -> Called:
    return Called(await client.call_tool(tool, arguments))


@pytest.fixture
def mcp_call(transactional_db: None) -> Callable[..., Called]:
    """``mcp_call(key, tool, {args}, subject="")``: one call through the in-process SDK client."""

    def call(key: str, tool: str, arguments: dict[str, Any] | None = None, *, subject: str = "") -> Called:
        async def run() -> Called:
            async with Client(build_server(fallback=Binding(key=key, subject=subject))) as client:
                return await _call(client, tool, arguments or {})

        return run_async(run)

    return call


@pytest.fixture
def mcp_tools(transactional_db: None) -> Callable[[str], list[Any]]:
    def tools(key: str) -> list[Any]:
        async def run() -> list[Any]:
            async with Client(build_server(fallback=Binding(key=key))) as client:
                return (await client.list_tools()).tools

        return run_async(run)

    return tools


@dataclass
class AsgiServer:
    url: str

    def call(self, key: str, tool: str, arguments: dict[str, Any] | None = None, *, query: str = "") -> Called:
        async def run() -> Called:
            async with Client(self._transport(key, query)) as client:
                return await _call(client, tool, arguments or {})

        return run_async(run)

    def tools(self, key: str) -> list[Any]:
        async def run() -> list[Any]:
            async with Client(self._transport(key, "")) as client:
                return (await client.list_tools()).tools

        return run_async(run)

    def _transport(self, key: str, query: str) -> Any:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30)
        return streamable_http_client(f"{self.url}/mcp/{query}", http_client=http)


@pytest.fixture(scope="session")
def _asgi_thread(django_db_setup: None) -> Iterator[str]:
    """uvicorn serving config.asgi on a free port for the whole run (it reads the test database settings)."""
    from config.asgi import application

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture
def asgi_server(_asgi_thread: str, transactional_db: None) -> AsgiServer:
    return AsgiServer(_asgi_thread)
