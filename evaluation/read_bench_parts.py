"""Where a read's time goes: ``bench_read`` times each step of ``memory_context_build`` alone.

Same subject, same queries, same rows as the whole read, in the same run, so the figures add up
against the whole read beside them and against LangGraph's search. Two of the steps are what the
issue's target asks memgov to do besides what LangGraph does — filter by scope and decrypt — and one
is what every read must also do here: record itself (usage counters and two hash-chained audit
events, committed with them).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from evaluation.read_bench import timed
from memories.access import Caller
from memories.read.context import ContextRequest
from memories.read.ranking import rank_candidates
from memories.read.scope import memory_context_candidates, memory_context_rows, read_grant_for
from memories.services.usage import memory_context_usage_record

STEPS = (
    "scope check (subject state)",
    "candidate statement (sealed rows)",
    "statement + decryption",
    "ranking (BM25 + formula)",
    "recording (usage, 2 audit events, commit)",
)


def read_parts(
    *, caller: Caller, request_for: Callable[[int], ContextRequest], now: datetime, requests: int, warmup: int
) -> dict[str, list[float]]:
    """Milliseconds per call of each of ``STEPS``, timed alone (wall clock), in that order."""
    scope = request_for(0).scope
    grant = read_grant_for(caller=caller, scope=scope).grant
    if grant is None:
        raise ValueError("the bench subject must be readable by the bench agent")
    candidates = memory_context_candidates(grant=grant, now=now)
    injected = [candidate.id for candidate in candidates[: request_for(0).top_k]]

    def record(number: int) -> None:
        memory_context_usage_record(
            tenant_id=grant.tenant_id,
            actor=caller.actor,
            subject_id=scope.user_id,
            agent_version="bench",
            read_ids=injected,
            injected_ids=injected,
            token_count=300,
            token_budget=1200,
            candidates=len(candidates),
            now=now,
        )

    steps: tuple[Callable[[int], object], ...] = (
        lambda number: read_grant_for(caller=caller, scope=scope),
        lambda number: memory_context_rows(grant=grant, now=now),
        lambda number: memory_context_candidates(grant=grant, now=now),
        lambda number: rank_candidates(candidates, query=request_for(number).query, now=now),
        record,
    )
    return {name: timed(step, requests=requests, warmup=warmup)[0] for name, step in zip(STEPS, steps, strict=True)}
