"""The examples in examples/ run as a user runs them (a fresh Python process, the key in the environment)
against config.asgi under uvicorn, offline, and do what their docstrings say."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from audit.models import AuditEvent
from conversations.models import Event, Session
from memories.models import Memory

EXAMPLES = Path(settings.BASE_DIR) / "examples"


def _run(name: str, url: str, key: str) -> dict:
    env = {**os.environ, "MEMGOV_URL": url, "MEMGOV_KEY": key, "MEMGOV_USER": "alice"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)], env=env, capture_output=True, text=True, timeout=240, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_agents_sdk_example_keeps_its_session_and_memory_in_memgov(asgi_server, world):
    result = _run("openai_agents_session.py", asgi_server.url, world.demo_key)
    assert result["answers"] == ["Noted: tables from now on.", "| city | country |\n| Paris | France |"]
    assert result["second_turn_saw_first"] and result["memory_in_instructions"]
    session = Session.objects.get(pk=result["memgov_session_id"])
    assert session.tenant == world.demo and session.user_id == "alice"
    assert Event.objects.filter(session=session).count() == result["items_in_memgov"] >= 5
    assert Memory.objects.get(tenant=world.demo, user_id="alice").content == "I prefer answers as tables."


def test_the_langgraph_example_checkpoints_travels_back_and_forks_on_memgov(asgi_server, world):
    result = _run("langgraph_graph.py", asgi_server.url, world.demo_key)
    assert result["messages"][0] == "Remember that I like short answers."
    assert "knowing: Remember that I like short answers." in result["messages"][-1]
    assert len(result["messages"]) == 4 and result["checkpoints"] >= 6
    assert result["forked_messages"][:2] == result["messages"][:2] and result["forked_messages"][2] == "And in French?"
    assert result["threads_in_memgov"]
    assert Session.objects.filter(tenant=world.demo, user_id="alice", workspace__startswith="langgraph:").count() == 1
    assert Memory.objects.filter(tenant=world.demo, user_id="alice", status="active").count() == 1


def test_the_mcp_example_writes_reads_and_forgets(asgi_server, world):
    result = _run("mcp_client.py", asgi_server.url, world.demo_key)
    assert {"memory_write", "memory_context", "memory_forget", "session_append"} <= set(result["tools"])
    assert result["written"] == "save" and result["secret"] == ["reject", "restricted_data"]
    assert result["read"] and result["forgot"] == "deleted" and result["after"] == []
    assert AuditEvent.objects.filter(tenant=world.demo, event="memory_deleted").count() == 1
