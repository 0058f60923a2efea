"""``manage.py mcp_stdio`` as an MCP client launches it: a subprocess speaking MCP on stdin/stdout, with the
agent key from the environment, against this test's database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from async_run import run as run_async
from child_env import database_env
from mcp import Client, StdioServerParameters

from memories.models import Memory

ROOT = Path(__file__).resolve().parents[2]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MEMGOV_AGENT_KEY", "MEMGOV_USER_ID")}
    return {**env, **database_env(), "DJANGO_SETTINGS_MODULE": "config.settings", **extra}


def test_it_serves_the_tools_over_stdio_for_the_key_in_the_environment(world, transactional_db):
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(ROOT / "manage.py"), "mcp_stdio"],
        env=_env(MEMGOV_AGENT_KEY=world.demo_key, MEMGOV_USER_ID="alice"),
        cwd=str(ROOT),
    )

    async def session() -> tuple[set[str], dict, dict]:
        async with Client(params, read_timeout_seconds=120) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            added = await client.call_tool("add_memories", {"text": "Remember: I like tables", "explicit": True})
            listed = await client.call_tool("list_memories", {})
            return names, added.structured_content, listed.structured_content

    names, added, listed = run_async(session)
    assert {"memory_write", "add_memories", "delete_all_memories"} <= names
    assert added["decision"] == "save"
    assert [m["memory"] for m in listed["results"]] == ["Remember: I like tables"]
    assert Memory.objects.get(pk=added["memory_id"]).user_id == "alice"


def test_it_refuses_to_start_without_a_valid_key(world, transactional_db):
    for key in ("mg_nope_nope",):
        done = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "mcp_stdio"],
            env=_env(MEMGOV_AGENT_KEY=key),
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
        assert done.returncode != 0
        assert "MEMGOV_AGENT_KEY" in done.stderr
        assert done.stdout == ""
