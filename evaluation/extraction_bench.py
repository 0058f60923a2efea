"""The workload of ``manage.py bench_extraction``: 50-event sessions for phase 1, many memories for phase 2.

A session is a chat of alternating user and assistant turns of realistic length; a few user turns carry
what extraction acts on (an explicit "remember", a preference said in passing, a pasted key to redact), the
rest is ordinary work. Everything is built in a throwaway tenant and committed, as a worker sees it (inside
one open transaction the data keys would not be cached and every decryption would read its key again):
run it on a throwaway database, as ``manage.py bench_report`` does.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from conversations.extraction import run as extraction
from conversations.extraction.run import extract_run
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import SessionChange, session_create, session_update
from governance.pipeline.base import Scope
from governance.services.tenancy import tenant_create
from governance.vocabulary import Level
from memories.lifecycle.consolidate import consolidate_run
from memories.services.records import NewMemory, memory_create

ACTOR = "system:bench_extraction"
WORK = [
    "Could you look at order {n} again and tell me whether the refund needs a manual review?",
    "I checked order {n}: the invoice total matches, the parcel shipped on time, so the refund can go through.",
    "帮我看一下第 {n} 号工单现在是什么状态，需要谁来处理？",
    "第 {n} 号工单在等财务确认，预计明天处理完。",
]
CUES = {  # user turns (even positions)
    4: "Remember: for order questions, always show the invoice total first.",
    16: "我一般喜欢先看结论，再看细节。",
    28: "The staging key is sk-proj-Zq81Xv02Lm93Ka74Jb65Hc56Gd47Fe38Ed29Dc10Ba. Post the notes to #releases.",
    40: "记住：以后回答我都用中文。",
}


def _events(count: int, salt: int) -> list[NewEvent]:
    events = []
    for n in range(count):
        text = CUES[n] if n in CUES else WORK[n % len(WORK)].format(n=salt * 1000 + n)
        kind = "user_message" if n % 2 == 0 else "assistant_message"
        events.append(NewEvent(kind=kind, content=text))
    return events


class _Timed:
    """Wraps a function and sums the seconds spent in it."""

    def __init__(self, wrapped: Callable[..., Any]) -> None:
        self.wrapped, self.seconds, self.calls = wrapped, 0.0, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return self.wrapped(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - started
            self.calls += 1


def bench_phase1(*, sessions: int, events: int) -> dict[str, Any]:
    tenant = tenant_create(slug=f"exbench-{secrets.token_hex(4)}", actor=ACTOR)
    for index in range(sessions):
        session = session_create(tenant_id=tenant.pk, user_id=f"u-{index % 10}", app="chat", actor=ACTOR)
        session_events_append(tenant_id=tenant.pk, session_id=session.pk, events=_events(events, index), actor=ACTOR)
        session_update(tenant_id=tenant.pk, session_id=session.pk, change=SessionChange(state="ended"), actor=ACTOR)
    timed = _Timed(extraction.memory_write)
    real = extraction.memory_write
    extraction.memory_write = timed
    try:
        started, cpu = time.perf_counter(), time.process_time()
        result = extract_run(tenant_id=tenant.pk, batch_size=sessions)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    finally:
        extraction.memory_write = real
    return {
        "sessions": sessions,
        "events_per_session": events,
        "seconds": round(seconds, 3),
        "sessions_per_s": round(sessions / seconds, 1),
        "events_per_s": round(sessions * events / seconds, 1),
        # This process's CPU time: on a machine shared with other work, the figure wall time can't give.
        "cpu_seconds": round(cpu, 3),
        "events_per_cpu_s": round(sessions * events / cpu, 1),
        "candidates": result["candidates"],
        "write_pipeline_share": round(timed.seconds / seconds, 3),
    }


def bench_phase2(*, memories: int, per_subject: int) -> dict[str, Any]:
    topics = ["中文回答", "分步骤", "表格", "代码先行", "简短", "pytest", "英文注释", "深色主题", "两位小数", "要点"]
    tenant = tenant_create(slug=f"exbench2-{secrets.token_hex(4)}", actor=ACTOR)
    for n in range(memories):
        user = f"u-{n // per_subject}"
        topic = topics[n % len(topics)]
        memory_create(
            tenant_id=tenant.pk,
            new=NewMemory(
                scope=Scope(Level.USER, user_id=user),
                type="user_preference",
                content=f"用户喜欢{topic}的回答（{n % per_subject}）。",
                source_type="explicit_user_request",
            ),
            actor=ACTOR,
        )
    started, cpu = time.perf_counter(), time.process_time()
    runs = proposed = 0
    while True:
        result = consolidate_run(tenant_id=tenant.pk, batch_size=200)
        runs += 1
        proposed += result["proposed"]
        if not result.has_more:
            break
    dirty_seconds, dirty_cpu = time.perf_counter() - started, time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    clean = consolidate_run(tenant_id=tenant.pk, batch_size=200)
    clean_ms, clean_cpu_ms = (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000
    return {
        "memories": memories,
        "subjects": memories // per_subject,
        "seconds": round(dirty_seconds, 3),
        "cpu_seconds": round(dirty_cpu, 3),
        "runs": runs,
        "proposed": proposed,
        "nothing_dirty_ms": round(clean_ms, 2),
        "nothing_dirty_cpu_ms": round(clean_cpu_ms, 2),
        "skipped_not_dirty": clean["skipped_not_dirty"],
    }
