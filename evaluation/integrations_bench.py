"""bench_integrations: what an agent waits for, per surface, against one real server (config.asgi under
uvicorn, in its own process) on the configured database.

Each *row group* measures one comparison and returns rows; ``ROW_GROUPS`` is the list the command runs, so
the framework adapters (``MemgovSession`` beside ``SQLiteSession``, ``MemgovSaver`` beside ``SqliteSaver``)
are added as groups of their own beside today's MCP-versus-REST one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
from mcp import Client as McpClient
from mcp.client.streamable_http import streamable_http_client

from evaluation.read_bench import percentile
from evaluation.startup_bench import stop


@dataclass(frozen=True)
class Row:
    group: str
    name: str
    samples_ms: list[float] = field(repr=False)
    beside: str = ""  # the row this one is compared with

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.samples_ms)
        return {
            "group": self.group,
            "row": self.name,
            "requests": len(ordered),
            "p50_ms": round(percentile(ordered, 0.5), 2),
            "p95_ms": round(percentile(ordered, 0.95), 2),
            "mean_ms": round(sum(ordered) / len(ordered), 2),
            "beside": self.beside,
        }


@dataclass(frozen=True)
class BenchTarget:
    """The running server and what a row group needs to call it."""

    url: str
    key: str
    subjects: tuple[str, ...]
    context_subject: str
    requests: int
    warmup: int
    sessions: int = 5  # the adapter rows: sessions (threads) grown to their full length
    items: int = 100  # items per Agents SDK session
    checkpoints: int = 50  # checkpoints per LangGraph thread


@contextmanager
def served(*, wsgi: bool = False, startup_timeout: float = 300.0) -> Iterator[str]:
    """config.asgi under uvicorn (or, with ``wsgi``, config.wsgi under gunicorn, one process of 8 threads),
    in a subprocess on a free port, until the block ends."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parent.parent
    if wsgi:
        argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--threads", "8"]
        argv += ["--log-level", "warning"]
    else:
        argv = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1"]
        argv += ["--port", str(port), "--log-level", "warning", "--no-access-log"]
    env = dict(os.environ)
    hosts = [host for host in env.get("MEMGOV_ALLOWED_HOSTS", "").split(",") if host]
    env["MEMGOV_ALLOWED_HOSTS"] = ",".join(dict.fromkeys([*hosts, "127.0.0.1"]))  # the address it is called on
    process = subprocess.Popen(argv, cwd=root, env=env)  # noqa: S603 - our own argv
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with code {process.returncode}")
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer /healthz in time")
            time.sleep(0.2)
        yield url
    finally:
        stop(process, timeout=20)


def _write_body(n: int, subject: str) -> dict[str, Any]:
    # Unique content per call: every write runs the whole pipeline (no shortcut through dedup).
    return {
        "content": f"Remember that I prefer answers with tables, note {n}.",
        "scope": {"level": "user", "user_id": subject},
        "source": {"source_type": "explicit_user_request", "source_message_id": f"bench-{n}"},
    }


def _context_body(subject: str) -> dict[str, Any]:
    return {"scope": {"user_id": subject}, "query": "how should the answer be formatted?", "top_k": 8}


def _tool_call(n: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


def mcp_beside_rest(target: BenchTarget) -> list[Row]:
    """memory_write and memory_context: REST (httpx), MCP with the SDK's client, and MCP as one JSON-RPC POST
    (the server's share without the SDK client's). Calls alternate between the surfaces, so the subject's
    growing memory and the machine's load fall on each alike."""
    headers = {"Authorization": f"Bearer {target.key}"}
    rest = httpx.Client(base_url=target.url, headers=headers, timeout=60)
    raw = httpx.Client(base_url=target.url, headers={**headers, **MCP_HEADERS}, timeout=60)
    samples: dict[str, list[float]] = {name: [] for name in ("rest_w", "sdk_w", "raw_w", "rest_c", "sdk_c", "raw_c")}
    counter = iter(range(10**9))

    def rest_call(path: str, body: dict[str, Any]) -> None:
        response = rest.post(path, json=body)
        response.raise_for_status()

    def raw_call(tool: str, arguments: dict[str, Any]) -> None:
        response = raw.post("/mcp/", json=_tool_call(next(counter), tool, arguments))
        response.raise_for_status()
        if response.json().get("result", {}).get("isError"):
            raise RuntimeError(f"{tool} failed: {response.text[:200]}")

    async def run() -> None:
        http = httpx2.AsyncClient(headers=headers, timeout=60)
        async with McpClient(streamable_http_client(f"{target.url}/mcp/", http_client=http)) as sdk:

            async def sdk_call(tool: str, arguments: dict[str, Any]) -> None:
                result = await sdk.call_tool(tool, arguments)
                if result.is_error:
                    raise RuntimeError(f"{tool} failed")

            async def step(name: str, subject: str) -> None:
                surface, op = name.split("_")
                if op == "w":
                    body, path, tool = _write_body(next(counter), subject), "/api/v1/memories/write", "memory_write"
                else:
                    body, path = _context_body(target.context_subject), "/api/v1/memories/context"
                    tool = "memory_context"
                if surface == "rest":
                    rest_call(path, body)
                elif surface == "raw":
                    raw_call(tool, body)
                else:
                    await sdk_call(tool, body)

            names = ["rest_w", "sdk_w", "raw_w", "rest_c", "sdk_c", "raw_c"]
            for i in range(target.warmup + target.requests):
                subject = target.subjects[i % len(target.subjects)]
                for name in reversed(names) if i % 2 else names:
                    started = time.perf_counter()
                    await step(name, subject)
                    if i >= target.warmup:
                        samples[name].append((time.perf_counter() - started) * 1000)

    try:
        anyio.run(run)
    finally:
        rest.close()
        raw.close()
    group = "mcp_vs_rest"
    return [
        Row(group, "REST POST /api/v1/memories/write", samples["rest_w"]),
        Row(group, "MCP memory_write (SDK client)", samples["sdk_w"], beside="REST POST /api/v1/memories/write"),
        Row(group, "MCP memory_write (one JSON-RPC POST)", samples["raw_w"], beside="REST POST /api/v1/memories/write"),
        Row(group, "REST POST /api/v1/memories/context", samples["rest_c"]),
        Row(group, "MCP memory_context (SDK client)", samples["sdk_c"], beside="REST POST /api/v1/memories/context"),
        Row(
            group,
            "MCP memory_context (one JSON-RPC POST)",
            samples["raw_c"],
            beside="REST POST /api/v1/memories/context",
        ),
    ]


def rest_on_asgi_beside_wsgi(target: BenchTarget) -> list[Row]:
    """The same REST calls through config.asgi (a2wsgi's threads) and config.wsgi (gunicorn's threads): what
    serving Django beside /mcp/ costs the REST API, if anything."""
    headers = {"Authorization": f"Bearer {target.key}"}
    samples: dict[str, list[float]] = {name: [] for name in ("asgi_w", "wsgi_w", "asgi_c", "wsgi_c")}
    counter = iter(range(10**9))
    with served(wsgi=True) as wsgi_url:
        clients = {
            "asgi": httpx.Client(base_url=target.url, headers=headers, timeout=60),
            "wsgi": httpx.Client(base_url=wsgi_url, headers=headers, timeout=60),
        }
        try:
            for i in range(target.warmup + target.requests):
                subject = target.subjects[i % len(target.subjects)]
                order = ("asgi", "wsgi") if i % 2 else ("wsgi", "asgi")
                for kind in order:
                    for op, path, body in (
                        ("w", "/api/v1/memories/write", _write_body(next(counter), subject)),
                        ("c", "/api/v1/memories/context", _context_body(target.context_subject)),
                    ):
                        started = time.perf_counter()
                        clients[kind].post(path, json=body).raise_for_status()
                        if i >= target.warmup:
                            samples[f"{kind}_{op}"].append((time.perf_counter() - started) * 1000)
        finally:
            for client in clients.values():
                client.close()
    group = "rest_asgi_vs_wsgi"
    write, context = "REST write via config.wsgi (gunicorn)", "REST context via config.wsgi (gunicorn)"
    return [
        Row(group, write, samples["wsgi_w"]),
        Row(group, "REST write via config.asgi (uvicorn)", samples["asgi_w"], beside=write),
        Row(group, context, samples["wsgi_c"]),
        Row(group, "REST context via config.asgi (uvicorn)", samples["asgi_c"], beside=context),
    ]


def _adapter_groups() -> list[Callable[[BenchTarget], list[Row]]]:
    from evaluation.adapters_bench import savers_beside_sqlite, sessions_beside_sqlite

    return [sessions_beside_sqlite, savers_beside_sqlite]


# The comparisons bench_integrations runs, in order.
ROW_GROUPS: list[Callable[[BenchTarget], list[Row]]] = [mcp_beside_rest, rest_on_asgi_beside_wsgi, *_adapter_groups()]


def ratios(rows: list[Row]) -> dict[str, float]:
    """p50 of each compared row over the p50 of the row it is compared with."""
    p50 = {row.name: percentile(sorted(row.samples_ms), 0.5) for row in rows}
    return {row.name: round(p50[row.name] / p50[row.beside], 2) for row in rows if row.beside in p50}
