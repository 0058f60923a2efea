"""MemgovSaver against langgraph-checkpoint-conformance (pinned in requirements.lock), the suite LangGraph
publishes for checkpointers: every base capability (put, put_writes, get_tuple, list, delete_thread) and the
extended copy_thread, prune and delete_for_runs must pass, against the live server (a session is kept
append-only: what prune and delete_for_runs keep goes to a new session of the thread, and the old one is
deleted)."""

from __future__ import annotations

import uuid

from async_run import run as run_async
from langgraph.checkpoint.conformance import checkpointer_test, validate
from memgov_client.langgraph import MemgovSaver


def test_memgov_saver_passes_langgraphs_checkpointer_conformance_suite(world, live_server):
    @checkpointer_test(name="MemgovSaver")
    async def memgov_saver():
        # A new subject per suite: the suites' thread ids repeat, and list(None) lists every thread.
        yield MemgovSaver(base_url=live_server.url, api_key=world.demo_key, user_id=f"lg-{uuid.uuid4().hex[:12]}")

    report = run_async(lambda: validate(memgov_saver))
    failures = {name: result.failures for name, result in report.results.items() if result.failures}
    assert report.passed_all_base(), failures
    passed = sum(r.tests_passed for r in report.results.values())
    # Every base test of langgraph-checkpoint-conformance 0.0.2 (58), every copy_thread (8), prune (8) and
    # delete_for_runs (7) test.
    assert passed == 81 and not failures
    assert {name for name, r in report.results.items() if r.detected} == {
        "put",
        "put_writes",
        "get_tuple",
        "list",
        "delete_thread",
        "copy_thread",
        "prune",
        "delete_for_runs",
    }
