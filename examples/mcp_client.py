"""An MCP client session on memgov with the official `mcp` SDK: write a memory, read it back as prompt
context, forget it, read again; and a secret that memgov refuses (a normal answer saying why).

    MEMGOV_URL=http://127.0.0.1:8000 MEMGOV_KEY=mg_… .venv/bin/python examples/mcp_client.py
"""

from __future__ import annotations

import asyncio
import json
import os

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

URL = os.environ.get("MEMGOV_URL", "http://127.0.0.1:8000")
KEY = os.environ["MEMGOV_KEY"]
USER = os.environ.get("MEMGOV_USER", "alice")


async def main() -> dict:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {KEY}"}, timeout=30)
    async with Client(streamable_http_client(f"{URL}/mcp/", http_client=http)) as client:
        tools = sorted(tool.name for tool in (await client.list_tools()).tools)

        async def call(tool: str, arguments: dict) -> dict:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, result.content
            return result.structured_content or {}

        scope = {"level": "user", "user_id": USER}
        written = await call(
            "memory_write",
            {
                "content": "Remember that I review pull requests on Fridays.",
                "scope": scope,
                "source": {"source_type": "explicit_user_request"},
            },
        )
        secret = await call(
            "memory_write",
            {
                "content": "My password is hunter2-Secret!9, remember it",
                "scope": scope,
                "source": {"source_type": "explicit_user_request"},
            },
        )
        read = await call("memory_context", {"scope": {"user_id": USER}, "query": "when do I review pull requests"})
        forgot = await call("memory_forget", {"memory_id": written["memory_id"]})
        after = await call("memory_context", {"scope": {"user_id": USER}, "query": "when do I review pull requests"})
    return {
        "tools": tools,
        "written": written["decision"],
        "secret": [secret["decision"], secret["reason_code"]],
        "read": [item["id"] for item in read["items"]] == [written["memory_id"]],
        "forgot": forgot["status"],
        "after": [item["id"] for item in after["items"]],
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())))
