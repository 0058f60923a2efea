"""How much of a person's memory an agent receives, priced by the read path itself for the person's page.

Both figures come from ``memory_context_compute_each`` — the code an agent's read runs, with its own token
estimate (``tokens.py``) over the text it would render — for the person's own scope with no project,
session or task named and no question asked:

- one request under the default ``top_k`` and token budget: what an agent asking nothing in particular
  receives (a request with a question may carry standing guidance too, never past the same budget);
- every memory that scope holds rendered together, as if an agent took all of them at once.

The two are one read's candidates, loaded, opened and ranked once, then picked and priced for each.

Memories kept for one project, session or task reach an agent only when it names that project, session
or task, so neither figure counts them. Nothing is recorded: no agent read anything.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from memories.access import Caller
from memories.read.context import ContextRequest, memory_context_compute_each
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
    default = ContextRequest(scope=scope, language=language)
    everything = replace(default, top_k=CANDIDATE_LIMIT, standing_k=0, token_budget=_UNLIMITED_TOKENS)
    one, whole = memory_context_compute_each(caller=caller, requests=(default, everything), now=now)
    if one.reason_code == "subject_paused" or not one.granted:
        return ContextFootprint(0, 0, default.token_budget, 0, 0, paused=one.reason_code == "subject_paused")
    return ContextFootprint(
        tokens=one.result.token_count,
        memories=len(one.result.items),
        token_budget=one.result.token_budget,
        all_tokens=whole.result.token_count,
        available=whole.candidates,
        paused=False,
    )
