"""How much of a person's memory an agent receives, priced by the read path itself for the person's page.

Both figures come from ``memory_context_compute`` — the code an agent's read runs, with its own token
estimate (``tokens.py``) over the text it would render — for the person's own scope with no project,
session or task named and no question asked:

- one request under the default ``top_k`` and token budget: what an agent asking nothing in particular
  receives, and the most any single request of that size costs;
- every memory that scope holds rendered together, as if an agent took all of them at once.

Memories kept for one project, session or task reach an agent only when it names that project, session
or task, so neither figure counts them. Nothing is recorded: no agent read anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memories.access import Caller
from memories.read.context import ContextRequest, memory_context_compute
from memories.read.scope import CANDIDATE_LIMIT, ContextScope

# "All of them": a budget and a count no scope reaches (the scope is capped at CANDIDATE_LIMIT rows).
_UNLIMITED_TOKENS = 10**9


@dataclass(frozen=True)
class ContextFootprint:
    tokens: int  # one default request with no question
    memories: int  # memories that request carries
    token_budget: int  # the default request's budget
    all_tokens: int  # every memory of the scope, rendered together
    available: int  # memories an agent may be given from that scope (the person's and shared rules)
    paused: bool  # the person paused their memory: agents receive nothing


def context_footprint_for_person(*, caller: Caller, language: str, now: datetime | None = None) -> ContextFootprint:
    """``language``: the labels' and rules' language ("en" or "zh"), as a request in it would get.

    The person's own caller, not an agent's: an agent whose key allows fewer levels or types gets less."""
    if not caller.subject_id:  # no subject, nothing of theirs to read
        return ContextFootprint(0, 0, ContextRequest(scope=ContextScope(user_id="")).token_budget, 0, 0, paused=False)
    scope = ContextScope(user_id=caller.subject_id)
    one = memory_context_compute(caller=caller, request=ContextRequest(scope=scope, language=language), now=now)
    if one.reason_code == "subject_paused" or not one.granted:
        budget = one.result.token_budget
        return ContextFootprint(0, 0, budget, 0, 0, paused=one.reason_code == "subject_paused")
    everything = memory_context_compute(
        caller=caller,
        request=ContextRequest(
            scope=scope, language=language, top_k=CANDIDATE_LIMIT, standing_k=0, token_budget=_UNLIMITED_TOKENS
        ),
        now=now,
    )
    return ContextFootprint(
        tokens=one.result.token_count,
        memories=len(one.result.items),
        token_budget=one.result.token_budget,
        all_tokens=everything.result.token_count,
        available=everything.candidates,
        paused=False,
    )
