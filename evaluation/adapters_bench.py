"""bench_integrations' adapter rows: each framework adapter beside its framework's SQLite implementation,
driven the way the framework drives it, from one run against the same server as the MCP rows.

- ``MemgovSession`` beside the Agents SDK's ``SQLiteSession``: sessions that grow to 100 items, two items
  (a user message and the answer) per ``add_items``, then ``get_items`` of the whole session: by the
  instance that added the items (which reads only what is new since its last read), and by a new instance
  of the same session (its first read, which reads the whole branch).
- ``MemgovSaver`` beside LangGraph's ``SqliteSaver``: threads that grow to 50 checkpoints, a ``put`` per
  step (one channel changed, as a chat graph's step changes its messages) and a ``get_tuple`` of the latest.

memgov's figures include encrypting, governing (scope checks, the session's lifecycle) and auditing each
call, and an HTTP round trip; the SQLite ones are a local file.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evaluation.integrations_bench import BenchTarget, Row


def _timed(samples: list[float], work: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    result = work()
    samples.append((time.perf_counter() - started) * 1000)
    return result


def _turn(n: int) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": f"Question {n}: which of the three deployment options fits a small team?"},
        {"role": "assistant", "content": f"Answer {n}: the single-machine setup, with SQLite and one worker."},
    ]


def sessions_beside_sqlite(target: BenchTarget) -> list[Row]:
    from agents.memory import SQLiteSession
    from memgov_client import Client
    from memgov_client.openai_agents import MemgovSession

    samples: dict[str, list[float]] = {k: [] for k in ("m_add", "s_add", "m_get", "m_first", "s_get")}
    folder = tempfile.TemporaryDirectory(prefix="memgov-bench-")
    client = Client(target.url, target.key)
    loop = asyncio.new_event_loop()
    try:
        for n in range(target.sessions):
            subject = target.subjects[n % len(target.subjects)]
            pair = {
                "m": MemgovSession(f"bench-{uuid.uuid4().hex}", client=client, user_id=subject, app="bench"),
                "s": SQLiteSession(uuid.uuid4().hex, db_path=Path(folder.name) / "agents.sqlite3"),
            }
            for turn in range(target.items // 2):
                items = _turn(turn)
                for kind in ("m", "s") if turn % 2 else ("s", "m"):
                    session = pair[kind]
                    _timed(samples[f"{kind}_add"], lambda s=session, i=items: loop.run_until_complete(s.add_items(i)))
            for _read in range(5):
                for kind in ("m", "s"):
                    session = pair[kind]
                    items = _timed(samples[f"{kind}_get"], lambda s=session: loop.run_until_complete(s.get_items()))
                    assert len(items) == target.items
                new = MemgovSession(pair["m"].session_id, client=client, user_id=subject, app="bench")
                assert new.memgov_session_id is not None  # found by its name before the timing
                items = _timed(samples["m_first"], lambda s=new: loop.run_until_complete(s.get_items()))
                assert len(items) == target.items
            pair["s"].close()
    finally:
        loop.close()
        client.close()
        folder.cleanup()
    group = "agents_sdk_session"
    add, get = "SQLiteSession.add_items (2 items)", f"SQLiteSession.get_items ({target.items} items)"
    return [
        Row(group, add, samples["s_add"]),
        Row(group, "MemgovSession.add_items (2 items)", samples["m_add"], beside=add),
        Row(group, get, samples["s_get"]),
        Row(group, f"MemgovSession.get_items ({target.items} items)", samples["m_get"], beside=get),
        Row(group, f"MemgovSession.get_items ({target.items}, first read)", samples["m_first"], beside=get),
    ]


def _checkpoint(saver: Any, previous: dict[str, Any] | None, step: int) -> tuple[dict[str, Any], dict[str, str]]:
    from langgraph.checkpoint.base import create_checkpoint, empty_checkpoint

    base = previous or empty_checkpoint()
    messages = [*base["channel_values"].get("messages", []), f"message {step}: " + "x" * 120]
    version = saver.get_next_version(base["channel_versions"].get("messages"), None)
    checkpoint = create_checkpoint(base, None, step)
    checkpoint["channel_values"] = {**base["channel_values"], "messages": messages}
    checkpoint["channel_versions"] = {**base["channel_versions"], "messages": version}
    return checkpoint, {"messages": version}


def savers_beside_sqlite(target: BenchTarget) -> list[Row]:
    from langgraph.checkpoint.sqlite import SqliteSaver
    from memgov_client import Client
    from memgov_client.langgraph import MemgovSaver

    samples: dict[str, list[float]] = {k: [] for k in ("m_put", "s_put", "m_get", "s_get")}
    folder = tempfile.TemporaryDirectory(prefix="memgov-bench-")
    client = Client(target.url, target.key)
    connection = sqlite3.connect(Path(folder.name) / "langgraph.sqlite3", check_same_thread=False)
    savers = {"m": MemgovSaver(client=client, user_id=target.subjects[0], app="bench"), "s": SqliteSaver(connection)}
    try:
        for _thread in range(target.sessions):
            thread_id = uuid.uuid4().hex
            configs = {kind: {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}} for kind in savers}
            latest: dict[str, Any] = {kind: None for kind in savers}
            for step in range(target.checkpoints):
                for kind in ("m", "s") if step % 2 else ("s", "m"):
                    saver = savers[kind]
                    checkpoint, versions = _checkpoint(saver, latest[kind], step)
                    metadata = {"source": "loop", "step": step}
                    configs[kind] = _timed(
                        samples[f"{kind}_put"],
                        lambda s=saver, c=configs[kind], k=checkpoint, v=versions, m=metadata: s.put(c, k, m, v),
                    )
                    head = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
                    got = _timed(samples[f"{kind}_get"], lambda s=saver, h=head: s.get_tuple(h))
                    assert got is not None and got.checkpoint["id"] == checkpoint["id"]
                    latest[kind] = got.checkpoint
    finally:
        connection.close()
        client.close()
        folder.cleanup()
    group = "langgraph_checkpointer"
    put, get = "SqliteSaver.put", "SqliteSaver.get_tuple (latest)"
    return [
        Row(group, put, samples["s_put"]),
        Row(group, "MemgovSaver.put", samples["m_put"], beside=put),
        Row(group, get, samples["s_get"]),
        Row(group, "MemgovSaver.get_tuple (latest)", samples["m_get"], beside=get),
    ]
