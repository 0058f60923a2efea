"""Ranking of visible memories: lexical relevance, recency, confidence and source trust in one formula.

    score = 0.55 · relevance + 0.15 · recency + 0.15 · confidence + 0.15 · trust

- relevance = BM25(query, memory) / the best BM25 among this request's candidates (0..1; 0 for all
  when no query term occurs anywhere). BM25 with k1 = 1.2, b = 0.75 and the always-positive idf
  ln(1 + (N − df + 0.5) / (df + 0.5)) over the request's candidates; terms from ``segment.py``.
- recency = 0.5 ^ (days since the memory was last updated / 30): a month-old memory weighs half.
- confidence = the memory's confidence (0..1) as stored by the write pipeline.
- trust = ``SOURCE_TRUST[source_type]``: what the person said or confirmed, an admin approved or a task
  state machine recorded is trusted most; inference less; outside content least.

What is eligible when the query has terms (``needs_relevance``): standing guidance on how to answer
(preferences, constraints) and whatever belongs to a scope the request named (its project, session,
task, or the team it named) are always eligible, below the relevant ones; facts (profile, corrections,
tool result references, temporary context) and organization-wide rules (tenant rules, rules of teams
the request didn't name) are injected only when a query term occurs in them. A rule that must shape
every answer belongs in the system prompt, which outranks memory (§9.2), not in memory. Without query
terms everything visible is eligible. Ties go to the newer memory.

Why not the ``bm25s`` library: it builds a sparse index per corpus (~2 ms for 100 short documents
measured here) and needs every document segmented (~0.1 ms each with jieba), while a read ranks a
fresh corpus of ~100 memories per request within a 10 ms budget. The formula above is the same Okapi
BM25 (Lucene's idf variant), computed directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import compress
from operator import itemgetter
from typing import NamedTuple

from governance.vocabulary import Level, MemoryType, SourceType
from memories.read.scope import ContextCandidate
from memories.read.segment import QueryTerm, query_matcher, query_terms


@dataclass(frozen=True)
class RankingWeights:
    relevance: float = 0.55
    recency: float = 0.15
    confidence: float = 0.15
    trust: float = 0.15
    recency_half_life_days: float = 30.0
    k1: float = 1.2
    b: float = 0.75


DEFAULT_WEIGHTS = RankingWeights()

SOURCE_TRUST: dict[str, float] = {
    SourceType.EXPLICIT_USER_REQUEST: 1.0,
    SourceType.EXPLICIT_USER_CONFIRMATION: 1.0,
    SourceType.HUMAN_AGENT_CORRECTION: 1.0,
    SourceType.ADMIN_CONSOLE: 1.0,
    SourceType.TASK_STATE_MACHINE: 0.9,
    SourceType.USER_STATEMENT: 0.7,
    SourceType.REPEATED_USER_BEHAVIOR: 0.7,
    SourceType.EVALUATION_FEEDBACK: 0.6,
    SourceType.AGENT_INFERENCE: 0.5,
    SourceType.TOOL_RESULT: 0.3,
    SourceType.DOCUMENT_CONTENT: 0.2,
    SourceType.WEB_CONTENT: 0.2,
}
UNKNOWN_SOURCE_TRUST = 0.2

STANDING_TYPES = frozenset({MemoryType.USER_PREFERENCE, MemoryType.CONSTRAINT})
_NAMED_LEVELS = frozenset({Level.PROJECT, Level.SESSION, Level.TASK})


def needs_relevance(candidate: ContextCandidate, *, team_named: bool) -> bool:
    """Whether this memory is injected only when the query is about it (see the module docstring)."""
    if candidate.type in STANDING_TYPES or candidate.level in _NAMED_LEVELS:
        return False
    if candidate.level == Level.USER and candidate.project:  # tagged with the project the request named
        return False
    return not (candidate.level == Level.TEAM and team_named)


class Ranked(NamedTuple):
    """A candidate with its score and the parts it was made of (a named tuple: one per candidate per read)."""

    candidate: ContextCandidate
    score: float
    relevance: float
    recency: float
    confidence: float
    trust: float
    bm25: float


def bm25_scores(terms: tuple[QueryTerm, ...], texts: list[str], *, k1: float, b: float) -> list[float]:
    """Okapi BM25 of each text for the query terms, idf computed over these texts."""
    count = len(texts)
    if not count or not terms:
        return [0.0] * count
    counted = query_matcher(terms).frequencies_of(texts)
    average_length = sum(length for _, length in counted) / count or 1.0
    norms = [k1 * (1 - b + b * length / average_length) for _, length in counted]
    scores = [0.0] * count
    for column in zip(*(frequencies for frequencies, _ in counted), strict=True):  # one term's count per text
        df = count - column.count(0)
        if not df:
            continue
        idf = math.log(1 + (count - df + 0.5) / (df + 0.5))
        for doc in compress(range(count), column):  # the texts the term occurs in
            frequency = column[doc]
            scores[doc] += idf * frequency * (k1 + 1) / (frequency + norms[doc])
    return scores


def recency_score(updated_at: datetime, *, now: datetime, half_life_days: float) -> float:
    age_days = max(0.0, (now - updated_at).total_seconds() / 86400)
    return 0.5 ** (age_days / half_life_days)


_ORDER = itemgetter(0, 1, 2)


def rank_candidates(
    candidates: list[ContextCandidate],
    *,
    query: str,
    now: datetime,
    team_named: bool = False,
    weights: RankingWeights = DEFAULT_WEIGHTS,
) -> list[Ranked]:
    """The eligible candidates, best first, each with its score and the parts it was made of."""
    terms = query_terms(query) if query.strip() else ()
    raw = bm25_scores(terms, [c.content for c in candidates], k1=weights.k1, b=weights.b)
    best = max(raw, default=0.0)
    half_life = weights.recency_half_life_days
    w_relevance, w_recency = weights.relevance, weights.recency
    w_confidence, w_trust = weights.confidence, weights.trust
    trust_of = SOURCE_TRUST.get
    keyed: list[tuple[float, timedelta, str, Ranked]] = []
    # The loop runs for every candidate of every read: recency_score() is written out, and the clamps are
    # conditionals (the same values as max()/min(), at a fraction of a builtin call's cost).
    for candidate, bm25 in zip(candidates, raw, strict=True):
        if terms and not bm25 and needs_relevance(candidate, team_named=team_named):
            continue
        relevance = bm25 / best if best > 0 else 0.0
        age = now - candidate.updated_at
        age_days = age.total_seconds() / 86400
        recency = 0.5 ** ((age_days if age_days > 0.0 else 0.0) / half_life)
        confidence = candidate.confidence if candidate.confidence > 0.0 else 0.0
        confidence = confidence if confidence < 1.0 else 1.0
        trust = trust_of(candidate.source_type, UNKNOWN_SOURCE_TRUST)
        score = w_relevance * relevance + w_recency * recency + w_confidence * confidence + w_trust * trust
        ranked = Ranked(candidate, round(score, 6), relevance, recency, confidence, trust, bm25)
        keyed.append((-ranked.score, age, candidate.id, ranked))  # best, then newest (youngest), then id
    keyed.sort(key=_ORDER)
    return [entry[3] for entry in keyed]
