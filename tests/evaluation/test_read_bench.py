"""bench_read at a tiny size: it seeds readable rows on both stores and prints the table and the JSON."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from audit.events import Event
from audit.models import AuditEvent
from audit.verify import verify_chain
from evaluation.read_bench import bench_tenants
from evaluation.read_bench_parts import STEPS
from memories.access import Caller
from memories.models import Memory
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope


def run(tmp_path, *extra: str) -> tuple[str, dict]:
    out, err = StringIO(), StringIO()
    call_command(
        "bench_read",
        "--total",
        "300",
        "--users",
        "6",
        "--small",
        "100",
        "--requests",
        "3",
        "--warmup",
        "1",
        "--langgraph-db",
        str(tmp_path / "lg.sqlite3"),
        "--json",
        *extra,
        stdout=out,
        stderr=err,
    )
    text = out.getvalue()
    return text, json.loads(text.strip().splitlines()[-1])


def test_it_seeds_measures_and_reports(db, tmp_path):
    text, report = run(tmp_path)
    assert (
        "| rows | memgov p50 | memgov p99 | memgov CPU p50 | CPU p99 | LangGraph SqliteStore.search p50 | p99 |" in text
    )
    assert [stage["rows"] for stage in report["stages"]] == [140, 340]  # 100 / 300 rows plus 40 shared rules
    assert all(
        stage["items"] > 0 and stage["memgov_p99"] > 0 and stage["langgraph_p99"] > 0 for stage in report["stages"]
    )
    assert report["per_user"] == 50 and report["subject"] == "u00000"


def test_it_times_each_step_of_a_read_alone(db, tmp_path):
    text, report = run(tmp_path)
    assert list(report["parts"]) == list(STEPS)
    assert all(figures["step_p50"] > 0 for figures in report["parts"].values())
    table = text.split("each step of the read timed alone", 1)[1]
    for row in (*STEPS, "whole read (memory_context_build)", "LangGraph SqliteStore.search"):
        assert f"| {row} |" in table


def test_the_recording_step_records_like_a_read(db, tmp_path):
    """The recording step is the real one: its usage bumps and audit events land like a read's."""
    tenants, _ = bench_tenants(actor="test")
    before = AuditEvent.objects.filter(tenant=tenants[0], event=Event.MEMORY_INJECTED).count()
    _, report = run(tmp_path, "--no-langgraph")
    after = AuditEvent.objects.filter(tenant=tenants[0], event=Event.MEMORY_INJECTED).count()
    calls_per_measurement = 3 + 1  # --requests 3, --warmup 1
    whole_reads = len(report["stages"]) * (calls_per_measurement + 2)  # and two untimed reads per stage
    assert after - before == whole_reads + calls_per_measurement
    assert verify_chain(tenant_id=tenants[0].pk).ok


def test_seeded_rows_are_real_encrypted_memories(db, tmp_path):
    run(tmp_path, "--no-langgraph")
    tenants, agent = bench_tenants(actor="test")
    memory = Memory.objects.filter(tenant=tenants[0], user_id="u00000").first()
    assert memory.content  # opens with the subject's data key through the ORM field too
    result = memory_context_build(
        caller=Caller(tenant_id=tenants[0].pk, actor="agent:bench-agent", agent=agent),
        request=ContextRequest(scope=ContextScope(user_id="u00000")),
    )
    assert result.items and all(Memory.objects.get(pk=item.id).user_id in ("u00000", "") for item in result.items)


def test_it_refuses_to_reuse_earlier_rows_without_reset(db, tmp_path):
    run(tmp_path, "--no-langgraph")
    with pytest.raises(CommandError, match="--reset"):
        run(tmp_path, "--no-langgraph")
    _, report = run(tmp_path, "--no-langgraph", "--reset")
    assert report["stages"][-1]["rows"] == 340


def test_bad_sizes_are_refused(db):
    with pytest.raises(CommandError, match="--users"):
        call_command("bench_read", "--total", "5", "--users", "10", stdout=StringIO())


def test_reuse_measures_without_seeding(db, tmp_path):
    run(tmp_path)
    _, report = run(tmp_path, "--reuse")
    assert len(report["stages"]) == 1 and report["stages"][0]["rows"] == 340
    assert report["stages"][0]["seed_seconds"] < 5 and report["stages"][0]["langgraph_p50"] > 0


def test_the_measured_subject_reads_its_projects_shared_rules(db, tmp_path):
    """Only members are given a project's shared rules: the bench makes its subject one, so a read
    ranks the same rows as before projects had members."""
    run(tmp_path, "--no-langgraph")
    tenants, agent = bench_tenants(actor="test")
    caller = Caller(tenant_id=tenants[0].pk, actor="agent:bench-agent", agent=agent)

    def shared_project_rules(subject: str) -> int:
        scope = ContextScope(user_id=subject, project="dispatch-docs")
        result = memory_context_build(caller=caller, request=ContextRequest(scope=scope, top_k=50, token_budget=8000))
        shared = [item for item in result.items if item.level == "project"]
        return sum(1 for item in shared if Memory.objects.get(pk=item.id).user_id == "")

    assert shared_project_rules("u00000") > 0
    assert shared_project_rules("u00002") == 0  # another subject of the tenant, not made a member
