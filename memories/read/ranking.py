"""Ranking of visible memories: hybrid relevance (lexical and semantic), then recency, confidence and trust.

    relevance = 0.4 · lexical + 0.6 · semantic          (each 0..1 within the request; see below)
    score     = 0.55 · relevance + 0.15 · recency + 0.15 · confidence + 0.15 · trust

- **lexical** = BM25(query, memory) / the best BM25 among this request's candidates. BM25 with k1 = 1.2,
  b = 0.75 and the always-positive idf ln(1 + (N − df + 0.5) / (df + 0.5)) over the request's
  candidates; terms from ``segment.py``, plus their dictionary translations (``bilingual.py``: the
  English words of a Chinese query word, the Chinese words of an English one), each counted at
  ``translated`` (0.5) of a query word's weight, so a Chinese query counts an English memory's words.
- **semantic** = how far the memory's cosine similarity to the query (both centered on the
  candidates' mean vector) stands above the request's mean cosine, as a share of the best one's
  lead: (cos − mean) / (best − mean), clipped to 0..1.
  Models place unrelated texts at different cosines (a static model's sit near 0.2, a transformer's
  near 0.8); measured against the request's own mean, the same weights serve any model. Without an
  embedder, or for a memory without a vector, it is 0 and the lexical part decides alone.
- recency = 0.5 ^ (days since the memory was last updated, or last used by an answer if that is later / 30):
  a memory answers keep citing (``POST /api/v1/memories/used``) stays as fresh as a new one, one nobody uses
  fades; merely being injected doesn't count. Confidence as stored; trust = ``SOURCE_TRUST[source_type]``.

**The named scope.** A memory of the session, task or project the request names gets ``named_scope``
(0.5) added to its relevance (``in_named_scope``): asked there, "this task" or "here" mean it. A memory
that names the requested project in its text ("ledger-sync deploys with Argo CD", kept at the user's
level) counts as one of that project's: it is as much about "here" as one tagged with the project.

**About the query, or not.** A memory is injected as relevant only when it belongs to the named scope,
or is about the query: some query term (or translation) occurs in it, or its cosine stands
``semantic_floor`` (2.0) standard deviations above the request's mean (less among a handful of
candidates, see ``semantic_scores``) — and the query's part of its relevance (before the prior) is at
least ``cutoff`` (0.15) of the best one's. Then a drop-off: its whole relevance, the named scope's
prior included, must be at least ``drop`` (0.4) of the best memory's, so a memory of the named scope
the query is not about stays out when another memory of it is what the query asks, and a memory
sharing a word of the question stays out when another answers much more of it. A rule the query is
about is not dropped: a rule is followed, not consulted, and a missed one costs more than a line read.
Ranking stops there: a read whose query is about one thing gets that thing, not top_k memories.
Those are ``relevant``, best score first (ties: the newer memory).

**Standing guidance** is what applies to every answer whatever the question: the rules of the scope
the request named (its project's; its team's, when it names one) and the subject's own preferences
and constraints (how to answer, what to avoid). The ones not already relevant are ``standing``, in
their own block: the named scope's rules first, then by the query-independent part of the score
(trust, confidence, recency) — the same for every query. ``context.py`` takes ``top_k`` relevant memories and
``standing_k`` standing ones. Without a query (no terms, no vector) everything visible is relevant,
ranked by the score with relevance 0.

Why not the ``bm25s`` library: it builds a sparse index per corpus (~2 ms for 100 short documents
measured here) and needs every document segmented (~0.1 ms each with jieba), while a read ranks a
fresh corpus of ~100 memories per request within a 10 ms budget. The formula above is the same Okapi
BM25 (Lucene's idf variant), computed directly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import itemgetter
from typing import NamedTuple

import numpy as np

from governance.vocabulary import Level
from memories.read.columns import (
    NAMED_LEVELS,
    RULE_TYPES,
    STANDING_TYPES,
    CandidateColumns,
    candidate_columns,
    epoch_us,
)
from memories.read.columns import SOURCE_TRUST as SOURCE_TRUST
from memories.read.columns import UNKNOWN_SOURCE_TRUST as UNKNOWN_SOURCE_TRUST
from memories.read.ranked import Ranked, RankedList, Ranking
from memories.read.scope import ContextCandidate
from memories.read.segment import LATIN_WORD, QueryTerm, query_matcher, query_terms, query_without, stem
from memories.read.semantic import VectorMatrix, semantic_arrays
from memories.read.semantic import semantic_scores as semantic_scores


@dataclass(frozen=True)
class RankingWeights:
    relevance: float = 0.55
    recency: float = 0.15
    confidence: float = 0.15
    trust: float = 0.15
    recency_half_life_days: float = 30.0
    k1: float = 1.2
    b: float = 0.75
    lexical: float = 0.4  # the lexical share of relevance; the semantic share is the rest
    translated: float = 0.5  # a dictionary translation's weight, against 1 for a query word
    cutoff: float = 0.15  # relevant: at least this share of the best relevance
    drop: float = 0.4  # and, but for a rule, its relevance (named scope included) this share of the best one's
    semantic_floor: float = 2.0  # a match on meaning alone: this many standard deviations above the mean
    single_character: float = 0.25  # a one-character Chinese term's weight: it occurs inside many words
    named_scope: float = 0.5  # added to the relevance of a memory of the session, task or project the request names
    common: float = 0.3  # a query word in more than this share of the candidates is left out of the query's vector


DEFAULT_WEIGHTS = RankingWeights()
# Up to this many candidates, opened ones are ranked one at a time (``_rank_each``), else as arrays.
FEW = 32


def standing_rank(candidate: ContextCandidate, *, team_named: bool) -> int | None:
    """Where a memory stands among the standing guidance, or None when it isn't any: first the rules of
    the scope the request named (its project's rules; its team's, when it named one), then the subject's
    own preferences and constraints (user level, or tagged with the project the request named)."""
    if candidate.type in RULE_TYPES and (
        candidate.level == Level.PROJECT or (candidate.level == Level.TEAM and team_named)
    ):
        return 0
    if candidate.type in STANDING_TYPES and candidate.level == Level.USER:
        return 1
    return None


def in_named_scope(candidate: ContextCandidate, *, mention: ProjectMention | None = None) -> bool:
    """A memory of the session, task or project the request named (the scope filter lets no other
    session's, task's or project's through), or one whose text names the requested project
    (``mention``, from ``project_mention``): "this task", "here" in a query mean it."""
    return (
        candidate.level in NAMED_LEVELS
        or bool(candidate.project)
        or (mention is not None and mention.found_in(candidate.content))
    )


class ProjectMention(NamedTuple):
    slug: str  # lower-cased
    pattern: re.Pattern[str]  # the slug as a whole name, in any case

    def found_in(self, text: str) -> bool:
        # The plain substring test first: the pattern (~1 µs a text) runs only on texts holding the slug.
        return self.slug in text.lower() and self.pattern.search(text) is not None


def project_mention(project: str) -> ProjectMention | None:
    """The requested project's slug as a whole name in a text, in any case (``ledger-sync`` but not
    ``ledger-sync-v2``), or None when the request names no project."""
    if not project:
        return None
    pattern = re.compile(rf"(?<![A-Za-z0-9_-]){re.escape(project)}(?![A-Za-z0-9_-])", re.IGNORECASE)
    return ProjectMention(project.lower(), pattern)


@dataclass(frozen=True)
class QueryPlan:
    """The query's terms with their weights: its own words (1.0) and their translations."""

    terms: tuple[QueryTerm, ...]
    weights: tuple[float, ...]
    labels: tuple[str, ...]  # how each term is shown: the word, or "word→translation"


_IDENTIFIER = re.compile(r"[a-z0-9]+(?:[-_./][a-z0-9]+)+")


def query_plan(query: str, *, weights: RankingWeights = DEFAULT_WEIGHTS, translate: bool = True) -> QueryPlan:
    from memories.read.bilingual import translations

    own = query_terms(query) if query.strip() else ()
    terms: dict[QueryTerm, tuple[float, str]] = {
        term: (weights.single_character if term.cjk and len(term.text) == 1 else 1.0, term.text) for term in own
    }
    if translate:
        # Parts of identifiers (dispatch-docs, ledger_sync) are names, not words to translate.
        names = {stem(part) for name in _IDENTIFIER.findall(query.lower()) for part in LATIN_WORD.findall(name)}
        translatable = [t for t in own if not (t.cjk and len(t.text) == 1) and not (not t.cjk and t.text in names)]
        for origin, term in translations(translatable):
            if term not in terms:
                terms[term] = (weights.translated, f"{origin}→{term.text}")
    return QueryPlan(
        terms=tuple(terms),
        weights=tuple(weight for weight, _ in terms.values()),
        labels=tuple(label for _, label in terms.values()),
    )


def semantic_query(
    query: str,
    plan: QueryPlan,
    counted: tuple[np.ndarray, list[float]] | None,
    *,
    weights: RankingWeights = DEFAULT_WEIGHTS,
) -> str:
    """The text the query's vector is made of: the query without its words that occur in more than
    ``common`` of the candidates (among more than ``FEW``; ``counted`` is the plan's term counts over them).

    BM25's idf already gives such a word (the name of the person every memory is about or every turn
    was spoken by) almost no weight; an embedding has no idf, and the query's vector would point at
    whatever memory says little else, a short one most of all ("Maren: of course" for "What breed is
    Maren's dog?"). When every word of the query is that common, the query is read whole.
    """
    if counted is None or not plan.terms:
        return query
    counts, lengths = counted
    if len(lengths) <= FEW:
        return query
    shares = (counts > 0).sum(axis=1) / len(lengths)
    own = [i for i, label in enumerate(plan.labels) if "→" not in label]
    common = tuple(plan.terms[i] for i in own if shares[i] > weights.common)
    if not common or len(common) == len(own):
        return query
    return query_without(query, common) or query


def bm25_scores(
    terms: tuple[QueryTerm, ...],
    texts: list[str],
    *,
    k1: float,
    b: float,
    weights: Sequence[float] | None = None,
    matched: list[list[int]] | None = None,
) -> list[float]:
    """Okapi BM25 of each text for the query terms, idf computed over these texts; each term's part
    times its weight (1 when no weights are given). ``matched``, when given, gets each text's term indexes."""
    if not texts or not terms:
        return [0.0] * len(texts)
    counts, lengths = term_counts(terms, texts)
    return bm25_from_counts(counts, lengths, k1=k1, b=b, weights=weights, matched=matched)


def term_counts(terms: tuple[QueryTerm, ...], texts: list[str]) -> tuple[np.ndarray, list[float]]:
    """Each term's count in each text (terms × texts) and each text's length, counted from the texts."""
    counted = query_matcher(terms).frequencies_of(texts)
    counts = np.array([frequencies for frequencies, _ in counted], dtype=np.int64).reshape(len(texts), len(terms))
    return counts.T, [length for _, length in counted]


def bm25_from_counts(
    counts: np.ndarray,
    lengths: list[float],
    *,
    k1: float,
    b: float,
    weights: Sequence[float] | None = None,
    matched: list[list[int]] | None = None,
) -> list[float]:
    """``bm25_scores`` from the counts (terms × texts) and lengths, however they were counted: from the
    texts (``term_counts``) or from a retrieval index (``memories.read.indexed``)."""
    return bm25_array(counts, lengths, k1=k1, b=b, weights=weights, matched=matched).tolist()


def bm25_array(
    counts: np.ndarray,
    lengths: list[float],
    *,
    k1: float,
    b: float,
    weights: Sequence[float] | None = None,
    matched: list[list[int]] | None = None,
) -> np.ndarray:
    """``bm25_from_counts`` as an array."""
    count = len(lengths)
    scores = np.zeros(count)
    if not count or not counts.shape[0]:
        return scores
    average_length = sum(lengths) / count or 1.0
    norms = k1 * (1 - b + b * np.asarray(lengths, dtype=np.float64) / average_length)
    for index, column in enumerate(counts):  # one term's count per text
        docs = np.flatnonzero(column)  # the texts the term occurs in
        df = len(docs)
        if not df:
            continue
        weight = 1.0 if weights is None else weights[index]
        idf = weight * math.log(1 + (count - df + 0.5) / (df + 0.5))
        frequency = column[docs].astype(np.float64)
        scores[docs] += idf * frequency * (k1 + 1) / (frequency + norms[docs])
        if matched is not None:
            for doc in docs.tolist():
                matched[doc].append(index)
    return scores


def recency_score(updated_at: datetime, *, now: datetime, half_life_days: float) -> float:
    age_days = max(0.0, (now - updated_at).total_seconds() / 86400)
    return 0.5 ** (age_days / half_life_days)


def rank_candidates(
    candidates: Sequence[ContextCandidate],
    *,
    query: str,
    now: datetime,
    weights: RankingWeights = DEFAULT_WEIGHTS,
    query_vector: np.ndarray | None = None,
    vectors: Sequence[np.ndarray | None] | VectorMatrix | None = None,
    plan: QueryPlan | None = None,
    counted: tuple[np.ndarray, list[float]] | None = None,
    team_named: bool = False,
    project: str = "",
) -> Ranking:
    """The relevant candidates best first, and the standing guidance not among them (module docstring),
    for opened candidates. ``project`` is the project the request names, if any; ``counted``, when given,
    the plan's ``term_counts`` over the candidates."""
    plan = plan or query_plan(query, weights=weights)
    if len(candidates) <= FEW:
        return _rank_each(
            candidates,
            plan=plan,
            now=now,
            weights=weights,
            query_vector=query_vector,
            vectors=vectors,
            team_named=team_named,
            project=project,
        )
    if counted is None and plan.terms and candidates:
        counted = term_counts(plan.terms, [c.content for c in candidates])
    mention = project_mention(project)
    mentioned = None
    if mention is not None:
        mentioned = np.fromiter((mention.found_in(c.content) for c in candidates), dtype=bool, count=len(candidates))
    return rank_columns(
        candidate_columns(candidates),
        candidate=candidates.__getitem__,
        now=now,
        plan=plan,
        weights=weights,
        query_vector=query_vector,
        vectors=vectors,
        team_named=team_named,
        counted=counted,
        mentioned=mentioned,
    )


def rank_columns(
    columns: CandidateColumns,
    *,
    candidate: Callable[[int], ContextCandidate],
    now: datetime,
    plan: QueryPlan,
    weights: RankingWeights = DEFAULT_WEIGHTS,
    query_vector: np.ndarray | None = None,
    vectors: Sequence[np.ndarray | None] | VectorMatrix | None = None,
    team_named: bool = False,
    counted: tuple[np.ndarray, list[float]] | None = None,
    mentioned: np.ndarray | None = None,
) -> Ranking:
    """``rank_candidates`` from what ranking reads of the candidates: their ``columns``, the plan's term
    counts and the lengths (``counted``), whether each text names the requested project (``mentioned``).
    A read from the retrieval index gives these without opening the candidates; ``candidate`` makes
    candidate i, for the entries a read reaches.

    Every score is computed as the formula reads, one array operation per term in the same order, so
    each value is the one the formula gives a candidate alone; entries are made only when reached
    (``ranked.RankedList``).
    """
    count = columns.count
    raw = np.zeros(count)
    if counted is not None and plan.terms and count:
        raw = bm25_array(*counted, k1=weights.k1, b=weights.b, weights=plan.weights)
    best_bm25 = float(raw.max()) if count else 0.0
    lexical = raw / best_bm25 if best_bm25 > 0 else np.zeros(count)
    meaning = semantic_arrays(
        query_vector, vectors if vectors is not None else [None] * count, floor=weights.semantic_floor
    )
    semantic = bool(meaning.present.any())
    has_query = bool(plan.terms) or semantic
    w_lexical = weights.lexical if semantic else 1.0
    # The query's part of relevance decides what is about the query (cutoff against the best of it); the
    # named scope's prior is added after, for the order.
    scoped = columns.named() if mentioned is None else columns.named() | mentioned
    query_part = w_lexical * lexical + (1.0 - w_lexical) * meaning.parts
    best_query = float(query_part.max()) if count else 0.0
    blended = query_part + np.where(scoped, weights.named_scope, 0.0)
    best = float(blended.max()) if count else 0.0
    if has_query:
        matches = ((raw > 0) | meaning.strong) & (best_query > 0) & (query_part >= weights.cutoff * best_query)
        kept = (blended >= weights.drop * best) | (matches & columns.rule())
        about = (scoped | matches) & kept
    else:
        about = np.ones(count, dtype=bool)
    rank = np.where(about, -1, columns.standing_rank(team_named=team_named))
    relevance = np.where(about, blended / best, 0.0) if best > 0 else np.zeros(count)
    age = epoch_us(now) - columns.fresh
    age_days = age / 1e6 / 86400
    recency = np.zeros(count)
    ranked = np.flatnonzero(about | (rank >= 0))
    days = np.where(age_days > 0.0, age_days, 0.0)[ranked] / weights.recency_half_life_days
    recency[ranked] = [0.5**value for value in days.tolist()]  # Python's pow: numpy's may differ in the last bit
    confidence = np.where(columns.confidence > 0.0, columns.confidence, 0.0)
    confidence = np.where(confidence < 1.0, confidence, 1.0)
    score = (
        weights.relevance * relevance
        + weights.recency * recency
        + weights.confidence * confidence
        + weights.trust * columns.trust
    )
    labels, counts = plan.labels, counted[0] if counted is not None and plan.terms else None

    def make(i: int) -> Ranked:
        return Ranked(
            candidate(i),
            round(float(score[i]), 6),
            float(relevance[i]),
            float(recency[i]),
            float(confidence[i]),
            float(columns.trust[i]),
            float(raw[i]),
            lexical=float(lexical[i]),
            semantic=float(meaning.parts[i]),
            cosine=float(meaning.cosines[i]) if meaning.present[i] else None,
            matched=() if counts is None else tuple(labels[t] for t in np.flatnonzero(counts[:, i]).tolist()),
            standing=not about[i],
            scoped=bool(scoped[i]),
        )

    # best, then newest (youngest), then id; standing: the named scope's rules first
    relevant = np.flatnonzero(about)
    standing = np.flatnonzero(rank >= 0)
    return Ranking(
        relevant=RankedList(relevant[np.lexsort((age[relevant], -score[relevant]))], age=age, make=make),
        standing=RankedList(
            standing[np.lexsort((age[standing], -score[standing], rank[standing]))], age=age, make=make, group=rank
        ),
        semantic=semantic,
    )


def _rank_each(
    candidates: Sequence[ContextCandidate],
    *,
    plan: QueryPlan,
    now: datetime,
    weights: RankingWeights,
    query_vector: np.ndarray | None,
    vectors: Sequence[np.ndarray | None] | VectorMatrix | None,
    team_named: bool,
    project: str,
) -> Ranking:
    """``rank_columns``, one candidate at a time: for a few candidates, each of numpy's calls costs more
    than a candidate's whole loop (``FEW``). The same formula in the same order, so the same values: the
    retrieval index's tests compare every read of the evaluation sets ranked both ways.
    """
    matched: list[list[int]] = [[] for _ in candidates]
    counted = term_counts(plan.terms, [c.content for c in candidates]) if plan.terms else (np.zeros((0, 0)), [])
    raw = (
        bm25_from_counts(*counted, k1=weights.k1, b=weights.b, weights=plan.weights, matched=matched)
        if plan.terms and candidates
        else [0.0] * len(candidates)
    )
    best_bm25 = max(raw, default=0.0)
    semantic, cosines, strong = semantic_scores(
        query_vector, vectors if vectors is not None else [None] * len(candidates), floor=weights.semantic_floor
    )
    has_query = bool(plan.terms) or any(cosine is not None for cosine in cosines)
    w_lexical = weights.lexical if any(cosine is not None for cosine in cosines) else 1.0
    # The query's part of relevance decides what is about the query (cutoff against the best of it); the
    # named scope's prior is added after, for the order.
    mention = project_mention(project)
    scoped = [in_named_scope(candidate, mention=mention) for candidate in candidates]
    query_part = [
        w_lexical * (bm25 / best_bm25 if best_bm25 > 0 else 0.0) + (1.0 - w_lexical) * part
        for bm25, part in zip(raw, semantic, strict=True)
    ]
    best_query = max(query_part, default=0.0)
    blended = [value + (weights.named_scope if named else 0.0) for value, named in zip(query_part, scoped, strict=True)]
    best = max(blended, default=0.0)
    half_life = weights.recency_half_life_days
    w_relevance, w_recency = weights.relevance, weights.recency
    w_confidence, w_trust = weights.confidence, weights.trust
    trust_of = SOURCE_TRUST.get
    relevant: list[tuple[float, timedelta, str, Ranked]] = []
    standing: list[tuple[float, timedelta, str, Ranked]] = []
    cutoff = weights.cutoff * best_query
    drop = weights.drop * best
    # The loop runs for every candidate of every read: recency_score() is written out, and the clamps are
    # conditionals (the same values as max()/min(), at a fraction of a builtin call's cost).
    for index, candidate in enumerate(candidates):
        bm25, value = raw[index], blended[index]
        matches = (bm25 > 0 or strong[index]) and best_query > 0 and query_part[index] >= cutoff
        kept = value >= drop or (matches and candidate.type in RULE_TYPES)
        about = not has_query or ((scoped[index] or matches) and kept)
        rank = None if about else standing_rank(candidate, team_named=team_named)
        if not about and rank is None:
            continue
        relevance = value / best if about and best > 0 else 0.0
        fresh, cited = candidate.updated_at, candidate.last_cited_at
        age = now - (cited if cited is not None and cited > fresh else fresh)
        age_days = age.total_seconds() / 86400
        recency = 0.5 ** ((age_days if age_days > 0.0 else 0.0) / half_life)
        confidence = candidate.confidence if candidate.confidence > 0.0 else 0.0
        confidence = confidence if confidence < 1.0 else 1.0
        trust = trust_of(candidate.source_type, UNKNOWN_SOURCE_TRUST)
        score = w_relevance * relevance + w_recency * recency + w_confidence * confidence + w_trust * trust
        ranked = Ranked(
            candidate,
            round(score, 6),
            relevance,
            recency,
            confidence,
            trust,
            bm25,
            lexical=bm25 / best_bm25 if best_bm25 > 0 else 0.0,
            semantic=semantic[index],
            cosine=cosines[index],
            matched=tuple(plan.labels[i] for i in matched[index]),
            standing=not about,
            scoped=scoped[index],
        )
        # best, then newest (youngest), then id; standing: the named scope's rules first
        if about:
            relevant.append((-ranked.score, age, candidate.id, ranked))
        else:
            standing.append((rank - ranked.score, age, candidate.id, ranked))  # type: ignore[operator]
    relevant.sort(key=itemgetter(0, 1, 2))
    standing.sort(key=itemgetter(0, 1, 2))
    return Ranking(
        relevant=[entry[3] for entry in relevant],
        standing=[entry[3] for entry in standing],
        semantic=any(cosine is not None for cosine in cosines),
    )
