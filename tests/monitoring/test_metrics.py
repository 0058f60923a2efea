"""§17.3 metrics from the audit log: writes by decision, detections, conflicts, cross-scope reads,
stale uses (independent of the read path's own filter), tokens per request; and the SVG charts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from audit.events import Event
from audit.services import audit_append, audit_fields, audit_record
from console.charts import Series, chart_build
from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType
from memories.access import Caller
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from memories.services.records import memory_delete
from memories.services.usage import memory_context_usage_record
from memories.services.write import memory_write
from monitoring.metrics import Bucket, audit_metrics, stale_uses, window_counts

T0 = datetime(2026, 3, 2, 10, 15, tzinfo=UTC)


def write(
    world,
    content: str,
    *,
    source=SourceType.EXPLICIT_USER_REQUEST,
    confidence: float = 1.0,
    type=MemoryType.USER_PREFERENCE,
):
    return memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content=content,
            scope=Scope(Level.USER, user_id="alice"),
            source_type=source,
            type=type,
            confidence=confidence,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
    )


def inject(world, ids: list[str], *, tokens: int = 50) -> None:
    memory_context_usage_record(
        tenant_id=world.demo.pk,
        actor="agent:demo-agent",
        subject_id="alice",
        agent_version="demo-agent",
        read_ids=ids,
        injected_ids=ids,
        token_count=tokens,
        token_budget=1200,
        candidates=len(ids),
        now=datetime.now(UTC),
    )


def test_writes_are_counted_by_decision_and_reason(world):
    with time_machine.travel(T0, tick=False):
        write(world, "Remember that I like tables in answers.")  # save
        write(world, "The user seems to prefer dark mode.", source=SourceType.AGENT_INFERENCE, confidence=0.8)  # ask
        write(world, "My password is hunter2-Secret!99, remember it.")  # reject: restricted
        write(world, "The user might like cats.", source=SourceType.AGENT_INFERENCE, confidence=0.2)  # reject
    metrics = audit_metrics(
        tenant_id=world.demo.pk, start=T0 - timedelta(hours=1), end=T0 + timedelta(hours=1), bucket=Bucket.HOUR
    )
    totals = metrics.totals
    assert (totals.writes, totals.saved, totals.asked, totals.rejected) == (4, 1, 1, 2)
    assert totals.reject_rate == 0.5
    assert totals.sensitive == 1 and totals.restricted == 1
    assert ("reject", "restricted_data", 1) in metrics.by_reason and (
        "reject",
        "low_confidence",
        1,
    ) in metrics.by_reason
    assert ("save", "explicit_request", 1) in metrics.by_reason
    assert dict(metrics.entity_types)  # the detected entity types, by name
    hour = T0.replace(minute=0)
    assert list(metrics.buckets) == [hour - timedelta(hours=1), hour, hour + timedelta(hours=1)]  # floored start
    assert metrics.buckets[T0.replace(minute=0)].writes == 4


def test_counts_fall_in_their_hour_and_day_and_stay_per_tenant(world):
    for hour, event in (
        (10, Event.CROSS_SCOPE_READ),
        (12, Event.CROSS_SCOPE_READ),
        (12, Event.MEMORY_CONFLICT_DETECTED),
    ):
        with time_machine.travel(T0.replace(hour=hour), tick=False):
            audit_record(tenant_id=world.demo.pk, event=event, actor="agent:demo-agent")
    start = T0.replace(hour=9, minute=0)
    hourly = audit_metrics(tenant_id=world.demo.pk, start=start, end=start + timedelta(hours=5), bucket=Bucket.HOUR)
    assert [c.cross_scope for c in hourly.buckets.values()] == [0, 1, 0, 1, 0]
    assert [c.conflicts for c in hourly.buckets.values()] == [0, 0, 0, 1, 0]
    daily = audit_metrics(
        tenant_id=world.demo.pk, start=start, end=start.replace(hour=0) + timedelta(days=2), bucket=Bucket.DAY
    )
    assert [c.cross_scope for c in daily.buckets.values()] == [2, 0]
    other = audit_metrics(tenant_id=world.acme.pk, start=start, end=start + timedelta(hours=5), bucket=Bucket.HOUR)
    assert other.totals.cross_scope == 0


def test_tokens_per_request_come_from_memory_injected(world):
    with time_machine.travel(T0, tick=False):
        inject(world, [], tokens=100)
        inject(world, [], tokens=300)
    found, _, _ = window_counts(tenant_id=world.demo.pk, start=T0 - timedelta(minutes=5), end=T0 + timedelta(minutes=5))
    counts = found[None]
    assert (counts.requests, counts.tokens, counts.tokens_max, counts.tokens_avg) == (2, 400, 300, 200)


def test_the_read_path_uses_no_stale_memory(world, make_memory):
    kept = make_memory(world.demo, "Prefers tables.", user_id="alice")
    gone = make_memory(world.demo, "Prefers emoji.", user_id="alice")
    memory_delete(memory=gone, actor="user:alice")
    caller = Caller(tenant_id=world.demo.pk, actor="agent:demo-agent", agent=world.demo_agent)
    result = memory_context_build(caller=caller, request=ContextRequest(scope=ContextScope(user_id="alice")))
    assert {item.id for item in result.items} == {str(kept.pk)}
    now = datetime.now(UTC)
    assert stale_uses(tenant_id=world.demo.pk, start=now - timedelta(hours=1), end=now + timedelta(minutes=1))[0] == []


def test_an_injection_of_a_deleted_paused_or_expired_memory_counts_as_stale(world, make_memory):
    deleted = make_memory(world.demo, "Prefers emoji.", user_id="alice")
    memory_delete(memory=deleted, actor="user:alice")
    inject(world, [str(deleted.pk)])  # what a broken read path would record
    expired = make_memory(world.demo, "Likes haiku.", user_id="alice")
    expired.expires_at = datetime.now(UTC) - timedelta(minutes=1)
    expired.save(update_fields=["expires_at"])
    fine = make_memory(world.demo, "Prefers tables.", user_id="alice")
    inject(world, [str(expired.pk), str(fine.pk)])
    pending = write(
        world, "The user seems to prefer dark mode.", source=SourceType.AGENT_INFERENCE, confidence=0.8
    ).memory
    inject(world, [str(pending.pk)])
    now = datetime.now(UTC)
    stale, scanned, capped = stale_uses(
        tenant_id=world.demo.pk, start=now - timedelta(hours=1), end=now + timedelta(minutes=1)
    )
    assert len(stale) == 3 and scanned == 3 and not capped


def test_injecting_before_a_deletion_is_not_stale(world, make_memory):
    memory = make_memory(world.demo, "Prefers emoji.", user_id="alice")
    inject(world, [str(memory.pk)])
    memory_delete(memory=memory, actor="user:alice")
    now = datetime.now(UTC)
    assert stale_uses(tenant_id=world.demo.pk, start=now - timedelta(hours=1), end=now + timedelta(minutes=1))[0] == []


def test_the_stale_scan_is_bounded(world):
    audit_append(
        [
            audit_fields(tenant_id=world.demo.pk, event=Event.MEMORY_INJECTED, actor="a", details={"memory_ids": []})
            for _ in range(5)
        ]
    )
    now = datetime.now(UTC)
    _, scanned, capped = stale_uses(
        tenant_id=world.demo.pk, start=now - timedelta(hours=1), end=now + timedelta(minutes=1), limit=3
    )
    assert scanned == 3 and capped


def test_bar_heights_are_proportional_and_lines_break_at_gaps():
    bars = chart_build(
        key="w",
        title="W",
        unit="",
        kind="bars",
        labels=["a", "b", "c"],
        series=[Series("x", "chart--a", [1, 4, 0]), Series("y", "chart--b", [1, 0, 0])],
    )
    heights = {(r.css, r.title): r.height for r in bars.rects}
    assert heights[("chart--a", "b: x 4")] == pytest.approx(
        2 * heights[("chart--a", "a: x 1")] * 2
    )  # 4 vs 1 on one axis
    assert len(bars.rects) == 3 and [label for _, label in bars.grid] == ["0", "2.5", "5"]
    line = chart_build(
        key="r",
        title="R",
        unit="%",
        kind="line",
        labels=["a", "b", "c", "d"],
        series=[Series("r", "chart--c", [10, None, 20, 30])],
    )
    assert len(line.lines[0].segments) == 2 and line.legend == [("r", "chart--c", "30")]
    empty = chart_build(key="e", title="E", unit="", kind="bars", labels=["a"], series=[Series("x", "chart--a", [0])])
    assert empty.rects == [] and empty.grid[-1][1] == "1"
