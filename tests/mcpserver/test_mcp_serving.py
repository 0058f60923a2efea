"""What ``make run`` (run_stack's web process) and production (gunicorn with uvicorn workers) start serves
Django and ``/mcp/`` together: each command as run_stack builds it, as a real process on this test database."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from child_env import database_env

from demo.management.commands.run_stack import stack_specs

ROOT = Path(__file__).resolve().parents[2]
TOOLS_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("web", ["uvicorn", "gunicorn"])
def test_the_web_process_serves_pages_the_api_and_mcp(world, transactional_db, web):
    port = _free_port()
    argv = stack_specs(host="127.0.0.1", port=port, web=web, with_worker=False, with_beat=False)[0].argv
    env = {**os.environ, **database_env(), "DJANGO_SETTINGS_MODULE": "config.settings"}
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, process.stderr.read().decode()[-2000:]
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the web process did not start"
            time.sleep(0.3)
        assert httpx.get(f"{url}/accounts/login/").status_code == 200
        auth = {"Authorization": f"Bearer {world.demo_key}"}
        assert httpx.get(f"{url}/api/v1/memories", params={"user_id": "alice"}, headers=auth).status_code == 200
        assert httpx.post(f"{url}/mcp/", json=TOOLS_LIST, headers=MCP_HEADERS).status_code == 401
        listed = httpx.post(f"{url}/mcp/", json=TOOLS_LIST, headers={**MCP_HEADERS, **auth})
        assert listed.status_code == 200
        assert "memory_write" in {tool["name"] for tool in listed.json()["result"]["tools"]}
    finally:
        process.terminate()
        process.wait(timeout=30)
