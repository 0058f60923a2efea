"""MemgovSaver's reads (clients/python/src/memgov_client/langgraph_saver.py), beyond LangGraph's conformance
suite: a saver that has read a thread fetches only the events appended since, and rebuilds the thread from
the root when what it read is no longer on the session's branch."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from branch_spy import spy_branch_reads
from langgraph.checkpoint.base import empty_checkpoint
from memgov_client.langgraph_saver import MemgovSaver


@contextlib.contextmanager
def _saver(world, live_server, user_id: str) -> Iterator[MemgovSaver]:
    saver = MemgovSaver(base_url=live_server.url, api_key=world.demo_key, user_id=user_id)
    try:
        yield saver
    finally:
        saver.close()


def _put(saver: MemgovSaver, thread: str, step: int, parent: str | None) -> str:
    checkpoint = empty_checkpoint()
    checkpoint["id"] = f"{step:04d}"
    checkpoint["channel_values"] = {"messages": [f"message {i}" for i in range(step + 1)]}
    checkpoint["channel_versions"] = {"messages": step}
    config: dict[str, Any] = {"configurable": {"thread_id": thread, "checkpoint_ns": "", "checkpoint_id": parent}}
    saver.put(config, checkpoint, {"step": step}, {"messages": step})
    return checkpoint["id"]


def _latest(saver: MemgovSaver, thread: str) -> tuple[str, list[str]]:
    found = saver.get_tuple({"configurable": {"thread_id": thread}})
    assert found is not None
    return found.config["configurable"]["checkpoint_id"], found.checkpoint["channel_values"]["messages"]


def _spy(saver: MemgovSaver) -> list[tuple[dict[str, Any], int | str]]:
    """(arguments, events answered or the error's field) of every branch read the saver makes."""
    return spy_branch_reads(saver._client)


def _put_steps(saver: MemgovSaver, thread: str, steps: int) -> Any:
    """``steps`` checkpoints on ``thread``, each the child of the last; the last one's config."""
    parent = None
    for step in range(steps):
        parent = _put(saver, thread, step, parent)
    return parent


def test_a_read_after_a_put_fetches_only_the_new_event(world, live_server):
    user_id = f"lg-{uuid.uuid4().hex[:12]}"
    with _saver(world, live_server, user_id) as saver:
        parent = _put_steps(saver, "t1", 5)
        calls = _spy(saver)
        assert _latest(saver, "t1") == ("0004", [f"message {i}" for i in range(5)])
        assert calls == [({"leaf": None, "after": None, "limit": 1000}, 5)]  # the first read: the whole branch
        _put(saver, "t1", 5, parent)
        calls.clear()
        assert _latest(saver, "t1") == ("0005", [f"message {i}" for i in range(6)])
        assert len(calls) == 1 and calls[0][0]["after"] is not None and calls[0][1] == 1
        calls.clear()
        assert _latest(saver, "t1")[0] == "0005"  # nothing new: nothing read but the empty answer
        assert len(calls) == 1 and calls[0][1] == 0


def test_a_read_rebuilds_the_thread_when_its_last_event_left_the_branch(world, live_server):
    user_id = f"lg-{uuid.uuid4().hex[:12]}"
    with _saver(world, live_server, user_id) as saver:
        _put_steps(saver, "t1", 3)
        assert _latest(saver, "t1")[0] == "0002"
        session_id = saver._session("t1", create=False)
        saver._client.sessions.pop(session_id)  # someone else undid the last checkpoint
        calls = _spy(saver)
        assert _latest(saver, "t1")[0] == "0001"
        assert [(kwargs["after"] is not None, answered) for kwargs, answered in calls] == [
            (True, "400 after"),
            (False, 2),
        ]
        with _saver(world, live_server, user_id) as fresh:
            assert _latest(fresh, "t1") == _latest(saver, "t1")


def test_delete_for_runs_keeps_the_values_later_checkpoints_need_and_deletes_the_old_session(world, live_server):
    user = f"lg-{uuid.uuid4().hex[:10]}"
    with _saver(world, live_server, user) as saver:
        # Run "a" stores "notes" with its checkpoint; run "b"'s checkpoint names that version without storing it.
        for checkpoint_id, parent, run, values, new_versions in (
            ("0001", None, "a", {"messages": ["m1"], "notes": ["from run a"]}, {"messages": 1, "notes": 1}),
            ("0002", "0001", "b", {"messages": ["m2"], "notes": ["from run a"]}, {"messages": 2}),
        ):
            checkpoint = empty_checkpoint()
            checkpoint["id"] = checkpoint_id
            checkpoint["channel_values"] = values
            checkpoint["channel_versions"] = {"messages": new_versions["messages"], "notes": 1}
            config: dict[str, Any] = {
                "configurable": {"thread_id": "t-runs", "checkpoint_ns": "", "checkpoint_id": parent}
            }
            stored = saver.put(config, checkpoint, {"run_id": run}, new_versions)
            saver.put_writes(stored, [("messages", f"pending of {run}")], task_id=f"task-{run}")
        _put_steps(saver, "t-other", 2)  # another thread, without either run: untouched
        old, other = saver._session("t-runs", create=False), saver._session("t-other", create=False)

        saver.delete_for_runs(["a"])

        listed = list(saver.list({"configurable": {"thread_id": "t-runs"}}))
        assert [t.config["configurable"]["checkpoint_id"] for t in listed] == ["0002"]
        assert listed[0].checkpoint["channel_values"] == {"messages": ["m2"], "notes": ["from run a"]}
        assert [w[2] for w in listed[0].pending_writes] == ["pending of b"]
        sessions = saver._client.sessions.list(user_id=user, app="default", workspace="langgraph:t-runs")["results"]
        assert [s["id"] for s in sessions] == [saver._session("t-runs", create=False)] and sessions[0]["id"] != old
        assert saver._session("t-other", create=False) == other and _latest(saver, "t-other")[0] == "0001"

        saver.delete_for_runs(["b"])  # nothing left of the thread: its session is deleted
        assert saver.get_tuple({"configurable": {"thread_id": "t-runs"}}) is None
        assert saver._client.sessions.list(user_id=user, app="default", workspace="langgraph:t-runs")["results"] == []
        saver.delete_for_runs([])  # no runs: nothing to do


def test_prune_keep_latest_leaves_the_latest_whole_and_deletes_the_old_history(world, live_server):
    user = f"lg-{uuid.uuid4().hex[:10]}"
    with _saver(world, live_server, user) as saver:
        _put_steps(saver, "t-prune", 4)
        # "notes" is stored by an earlier checkpoint only; the latest names its version, so it must survive.
        for checkpoint_id, parent, values, new_versions in (
            ("0004", "0003", {"messages": ["m"], "notes": ["kept from before"]}, {"messages": 4, "notes": 1}),
            ("0009", "0004", {"messages": ["only message"], "notes": ["kept from before"]}, {"messages": 9}),
        ):
            checkpoint = empty_checkpoint()
            checkpoint["id"] = checkpoint_id
            checkpoint["channel_values"] = values
            checkpoint["channel_versions"] = {"messages": new_versions["messages"], "notes": 1}
            config: dict[str, Any] = {
                "configurable": {"thread_id": "t-prune", "checkpoint_ns": "", "checkpoint_id": parent}
            }
            saver.put(config, checkpoint, {"step": int(checkpoint_id)}, new_versions)
        old = saver._session("t-prune", create=False)
        saver.prune(["t-prune"], strategy="keep_latest")
        assert [
            t.config["configurable"]["checkpoint_id"] for t in saver.list({"configurable": {"thread_id": "t-prune"}})
        ] == ["0009"]
        assert saver.get_tuple({"configurable": {"thread_id": "t-prune"}}).checkpoint["channel_values"] == {
            "messages": ["only message"],
            "notes": ["kept from before"],
        }
        assert saver._session("t-prune", create=False) != old
        # The old session, with the pruned checkpoints, is gone from the server, not only from the saver.
        sessions = saver._client.sessions.list(user_id=user, app="default", workspace="langgraph:t-prune")["results"]
        assert [s["id"] for s in sessions] == [saver._session("t-prune", create=False)]
    with _saver(world, live_server, user) as fresh:  # a new saver reads the same pruned thread
        assert _latest(fresh, "t-prune") == ("0009", ["only message"])
    with _saver(world, live_server, user) as saver, pytest.raises(ValueError, match="strategy"):
        saver.prune(["t-prune"], strategy="everything")
