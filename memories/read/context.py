"""``memory_context_build``: the one entry point of the read path, for the agent API and the browser preview.

Steps (DESIGN.md "The read path"): the scope and permission filter decides what the caller may read
(a cross-scope request ends here, empty, with ``cross_scope_read``); a paused subject, or an agent the
subject switched off (``subject_blocked_agent``), gets nothing;
the visible active memories are ranked (``ranking.py``: lexical and, with an embedder, semantic
relevance to the query); the memories about the query are taken in rank order while they fit
``top_k`` and the token budget (the tags, the rules and any conflict notes included), then up to
``standing_k`` of the subject's standing guidance (preferences and constraints, in their own
``<user_guidance>`` block) in what budget is left; they are rendered; and the read is recorded —
usage counters and ``memory_read``/``memory_injected`` in one transaction.

The query is embedded once per read when an embedder is configured. If the embedder fails (an
endpoint down), the read ranks lexically and says so (``ContextResult.ranking``); it never fails.

``memory_context_compute`` is everything but the record: the person's own list page prices what an agent
receives with it (``footprint.py``) without a read being recorded that no agent made.

Reading happens outside that transaction: SQLite takes its write lock at BEGIN, and decrypting and
ranking must not hold it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple

import numpy as np
from django.utils import timezone

from memories.access import Caller
from memories.embedding.embedders import EmbedderUnavailable, current_embedder
from memories.read.conflicts import Conflict, conflict_suggestion, detect_conflicts
from memories.read.index import retrieval_index_of
from memories.read.indexed import IndexedCandidates, looks_own, rank_indexed
from memories.read.ranked import Ranked, Ranking
from memories.read.ranking import FEW, query_plan, rank_candidates, semantic_query, term_counts
from memories.read.render import (
    STANDING_BLOCK,
    TYPE_LABELS,
    RenderLine,
    block_for,
    detect_language,
    priced_line_body,
    render_context_priced,
    rules_cost,
    tag_cost,
)
from memories.read.scope import (
    ContextCandidate,
    ContextScope,
    ReadGrant,
    memory_context_candidates,
    read_grant_for,
)
from memories.read.sealed import open_vectors
from memories.read.tokens import total_tokens
from memories.services.citations import citation_id
from memories.services.retrieval_index import INDEX_MIN_MEMORIES, INDEX_STALE_MIN, retrieval_index_request
from memories.services.usage import memory_context_usage_record, memory_cross_scope_read_record

DEFAULT_TOP_K = 8
DEFAULT_STANDING_K = 5
DEFAULT_TOKEN_BUDGET = 1200
logger = logging.getLogger("memgov.read")


@dataclass(frozen=True)
class ContextRequest:
    scope: ContextScope
    query: str = ""
    types: tuple[str, ...] = ()
    top_k: int = DEFAULT_TOP_K
    token_budget: int = DEFAULT_TOKEN_BUDGET
    instruction: str = ""
    language: str = "auto"  # auto | en | zh: the language of labels and rules
    standing_k: int = DEFAULT_STANDING_K  # standing guidance injected besides the top_k relevant memories


@dataclass(frozen=True)
class ContextItem:
    id: str
    ref: str  # the memory's label in the rendered text (m1, m2, …), in rendering order
    type: str
    level: str
    block: str
    content: str
    source_type: str
    source_message_id: str
    confidence: float
    updated_at: datetime
    score: float
    relevance: float
    recency: float
    trust: float
    tokens: int
    lexical: float = 0.0
    semantic: float = 0.0
    cosine: float | None = None
    matched: tuple[str, ...] = ()
    why: tuple[str, ...] = ()  # reason codes, see ``reasons``
    team: str = ""
    project: str = ""
    session_id: str = ""
    task_id: str = ""
    citation_id: str = ""  # what the agent reports to POST /memories/used when its answer used this item


@dataclass(frozen=True)
class ContextConflict:
    conflict: Conflict
    suggestion: str


@dataclass(frozen=True)
class ContextResult:
    rendered: str
    language: str
    token_budget: int
    top_k: int
    items: tuple[ContextItem, ...] = ()
    standing_k: int = DEFAULT_STANDING_K
    conflicts: tuple[ContextConflict, ...] = ()
    token_count: int = 0
    considered: int = 0  # visible memories that were ranked
    omitted: int = 0  # relevant or standing, but left out by top_k, standing_k or the budget
    ranking: str = "lexical"  # hybrid: a query vector took part; lexical: words only


class _Picked(NamedTuple):
    ranked: Ranked
    line: RenderLine
    tokens: int


def _pick(
    ranking: Ranking, *, top_k: int, standing_k: int, budget: int, language: str, contents: _Contents | None = None
) -> list[_Picked]:
    """Best first, each relevant memory that still fits the budget (rules and tags included), until top_k
    are taken; then the standing guidance, until standing_k more are, in what budget is left
    (``contents``: where the content of memories ranked from the index is opened)."""
    used = rules_cost(language)
    zone = timezone.get_current_timezone()
    opened: set[str] = set()
    picked: list[_Picked] = []
    for entries, limit in ((ranking.relevant, top_k), (ranking.standing, standing_k)):
        taken = 0
        for i, ranked in enumerate(entries):
            if taken >= limit:
                break
            entry = ranked
            if contents is not None:
                with_content = contents.opened(entries, i)
                if with_content is None:
                    continue
                entry = with_content
            block = STANDING_BLOCK if entry.standing else block_for(entry.candidate)
            body, count = priced_line_body(entry.candidate, language=language, zone=zone)
            cost = total_tokens((count,))
            extra = 0 if block in opened else tag_cost(block)
            if used + cost + extra > budget:
                continue
            used += cost + extra
            opened.add(block)
            taken += 1
            picked.append(_Picked(entry, RenderLine(block, entry.candidate, body, count), cost))
    return picked


def reasons(ranked: Ranked) -> tuple[str, ...]:
    """Why a memory is in the context, as codes: ``query_terms`` (a query word occurs in it),
    ``translated_terms`` (a dictionary translation of one does), ``semantic`` (its meaning is close to
    the query's), ``named_scope`` (it belongs to, or names, the session, task or project the request
    named), ``standing`` (standing guidance, injected whatever the query), ``no_query``."""
    if ranked.standing:
        return ("standing",)
    codes = []
    if any("→" not in label for label in ranked.matched):
        codes.append("query_terms")
    if any("→" in label for label in ranked.matched):
        codes.append("translated_terms")
    if ranked.semantic > 0:
        codes.append("semantic")
    if ranked.scoped:
        codes.append("named_scope")
    return tuple(codes) or ("no_query",)


def _render_with_conflicts(
    picked: list[_Picked], *, instruction: str, budget: int, language: str
) -> tuple[list[_Picked], list[Conflict], str, dict[str, str], int]:
    """Render with the conflict notes; drop the lowest-ranked memories while the notes overflow the budget."""
    while True:
        conflicts = detect_conflicts(
            instruction, [(p.ranked.candidate.id, p.ranked.candidate.type, p.ranked.candidate.content) for p in picked]
        )
        rendered, refs, tokens = render_context_priced([p.line for p in picked], language=language, conflicts=conflicts)
        if not picked or tokens <= budget:
            return picked, conflicts, rendered, refs, tokens
        picked = picked[:-1]


def _item(picked: _Picked, *, ref: str) -> ContextItem:
    ranked, candidate = picked.ranked, picked.ranked.candidate
    return ContextItem(
        id=candidate.id,
        ref=ref,
        type=candidate.type,
        level=candidate.level,
        block=picked.line.block,
        content=candidate.content,
        source_type=candidate.source_type,
        source_message_id=candidate.source_message_id,
        confidence=candidate.confidence,
        updated_at=candidate.updated_at,
        score=ranked.score,
        relevance=round(ranked.relevance, 6),
        recency=round(ranked.recency, 6),
        trust=ranked.trust,
        tokens=picked.tokens,
        lexical=round(ranked.lexical, 6),
        semantic=round(ranked.semantic, 6),
        cosine=None if ranked.cosine is None else round(ranked.cosine, 6),
        matched=ranked.matched,
        why=reasons(ranked),
        team=candidate.team,
        project=candidate.project,
        session_id=candidate.session_id,
        task_id=candidate.task_id,
    )


class ContextComputed(NamedTuple):
    """A read's result before it is recorded: how many candidates it ranked, why it is empty (a
    ``reason_code`` such as ``subject_paused``), or that the scope was refused (``granted`` false, with the
    ``CrossScope`` code in ``denied``)."""

    result: ContextResult
    candidates: int = 0
    reason_code: str = ""
    granted: bool = True
    denied: str = ""
    indexed: int = 0  # candidates ranked from the retrieval index (the rest were opened)


def memory_context_compute(*, caller: Caller, request: ContextRequest, now: datetime | None = None) -> ContextComputed:
    """What the agent would see for this request, computed and recorded nowhere (no audit, no usage).

    ``memory_context_build`` is this and its record; the person's own pages use it alone to say what an
    agent receives (a count of tokens and memories, never shown to anyone but that person).
    """
    return memory_context_compute_each(caller=caller, requests=(request,), now=now)[0]


def _limits_only(request: ContextRequest, first: ContextRequest) -> ContextRequest:
    return replace(request, top_k=first.top_k, standing_k=first.standing_k, token_budget=first.token_budget)


def memory_context_compute_each(
    *, caller: Caller, requests: Sequence[ContextRequest], now: datetime | None = None
) -> list[ContextComputed]:
    """``memory_context_compute`` of requests that differ only in ``top_k``, ``standing_k`` and
    ``token_budget``: the candidates are loaded, opened and ranked once, then picked and priced for each."""
    first = requests[0]
    if any(_limits_only(request, first) != first for request in requests):
        raise ValueError("requests computed together differ only in their limits")
    now = now or timezone.now()
    language = first.language
    if language not in ("en", "zh"):
        language = detect_language(first.query, first.instruction)
    empty = [
        ContextResult(
            rendered="",
            language=language,
            token_budget=request.token_budget,
            top_k=request.top_k,
            standing_k=request.standing_k,
        )
        for request in requests
    ]
    decision = read_grant_for(caller=caller, scope=first.scope, types=first.types)
    if decision.grant is None:
        return [ContextComputed(result, granted=False, denied=decision.denied) for result in empty]
    if decision.grant.agent_blocked:
        return [ContextComputed(result, reason_code="subject_blocked_agent") for result in empty]
    if decision.grant.subject_paused:
        return [ContextComputed(result, reason_code="subject_paused") for result in empty]

    ranking, considered, source = _rank(decision.grant, first, now=now)
    contents, indexed = None, 0
    if source is not None:
        contents = _Contents(source, ranking)
        contents.open_first(top_k=max(r.top_k for r in requests), standing_k=max(r.standing_k for r in requests))
        indexed = considered - len(source.stale)
    return [
        ContextComputed(
            _result(request, ranking, language=language, considered=considered, contents=contents),
            considered,
            indexed=indexed,
        )
        for request in requests
    ]


def _rank(grant: ReadGrant, request: ContextRequest, *, now: datetime) -> tuple[Ranking, int, IndexedCandidates | None]:
    """The grant's memories ranked for the request, and how many were: from the subject's retrieval index
    when there is one (``indexed.py``; then the memories shown are opened by ``_Contents``), else opened
    and ranked as they are. A read that finds the index missing or behind asks for a refresh."""
    embedder = current_embedder()
    query = request.query

    def embed_query(text: str) -> np.ndarray | None:
        try:
            return embedder.embed([text], kind="query")[0] if embedder is not None else None
        except EmbedderUnavailable as exc:
            logger.warning("read ranked lexically: %s", exc)
            return None

    team_named, project = bool(request.scope.team), request.scope.project
    index = retrieval_index_of(tenant_id=grant.tenant_id, owner=grant.user_id)
    if index is not None:
        ranking, source = rank_indexed(
            grant=grant,
            now=now,
            index=index,
            model=embedder.name if embedder is not None else "",
            query=query,
            embed_query=embed_query,
            team_named=team_named,
            project=project,
        )
        considered = len(source)
        if source.own_stale() >= max(INDEX_STALE_MIN, considered // 10):
            retrieval_index_request(tenant_id=grant.tenant_id, owner=grant.user_id)
        return ranking, considered, source
    model = embedder.name if embedder is not None and query.strip() else ""
    candidates = memory_context_candidates(grant=grant, now=now, model=model)
    plan = query_plan(query)
    counted = None
    if plan.terms and len(candidates) > FEW:
        counted = term_counts(plan.terms, [candidate.content for candidate in candidates])
    query_vector, vectors = None, None
    if model and any(c.vector is not None for c in candidates):
        query_vector = embed_query(semantic_query(query, plan, counted))
        if query_vector is not None:
            vectors = open_vectors(candidates, tenant_id=grant.tenant_id)
    if sum(1 for candidate in candidates if looks_own(candidate)) >= INDEX_MIN_MEMORIES:
        retrieval_index_request(tenant_id=grant.tenant_id, owner=grant.user_id)
    ranking = rank_candidates(
        candidates,
        query=query,
        now=now,
        query_vector=query_vector,
        vectors=vectors,
        plan=plan,
        counted=counted,
        team_named=team_named,
        project=project,
    )
    return ranking, len(candidates), None


class _Contents:
    """The content of memories ranked from the index, opened when one may be shown: the first ``top_k``
    relevant and ``standing_k`` standing at once, then (when the budget skips some) the next ones of the
    same list, a batch at a time."""

    def __init__(self, source: IndexedCandidates, ranking: Ranking) -> None:
        self._source, self._ranking = source, ranking
        self._opened: dict[str, ContextCandidate] = {}
        self._tried: set[str] = set()
        self._batch = DEFAULT_TOP_K

    def open_first(self, *, top_k: int, standing_k: int) -> None:
        self._batch = max(top_k, standing_k, 1)
        first = [e.candidate for e in self._ranking.relevant[:top_k]]
        first += [e.candidate for e in self._ranking.standing[:standing_k]]
        self._open(first)

    def _open(self, candidates: list[ContextCandidate]) -> None:
        self._opened.update(self._source.open_contents(candidates))
        self._tried.update(candidate.id for candidate in candidates)

    def opened(self, entries: Sequence[Ranked], i: int) -> Ranked | None:
        """Entry i of ``entries`` with its memory's content, or None when the memory no longer opens as
        this read selected it (deleted, erased or edited since): it is not shown."""
        candidate = entries[i].candidate
        if candidate.id not in self._tried:
            self._open([e.candidate for e in entries[i : i + self._batch]])
        opened = self._opened.get(candidate.id)
        return None if opened is None else entries[i]._replace(candidate=opened)


def _result(
    request: ContextRequest, ranking: Ranking, *, language: str, considered: int, contents: _Contents | None = None
) -> ContextResult:
    """The ranked candidates picked within this request's limits, rendered and priced."""
    picked = _pick(
        ranking,
        top_k=request.top_k,
        standing_k=request.standing_k,
        budget=request.token_budget,
        language=language,
        contents=contents,
    )
    picked, conflicts, rendered, refs, tokens = _render_with_conflicts(
        picked, instruction=request.instruction, budget=request.token_budget, language=language
    )
    items = tuple(_item(p, ref=refs[p.ranked.candidate.id]) for p in picked)
    return ContextResult(
        rendered=rendered,
        language=language,
        token_budget=request.token_budget,
        top_k=request.top_k,
        standing_k=request.standing_k,
        items=items,
        conflicts=tuple(
            ContextConflict(c, conflict_suggestion(c, language=language, type_labels=TYPE_LABELS[language]))
            for c in conflicts
        ),
        token_count=tokens,
        considered=considered,
        omitted=len(ranking.relevant) + len(ranking.standing) - len(items),
        ranking="hybrid" if ranking.semantic else "lexical",
    )


def memory_context_build(
    *, caller: Caller, request: ContextRequest, preview: bool = False, now: datetime | None = None
) -> ContextResult:
    """What the agent sees for this request, recorded as read (and, unless a preview, as injected)."""
    now = now or timezone.now()
    agent_version = caller.agent.name if caller.agent is not None else ""
    subject_id = request.scope.user_id
    computed = memory_context_compute(caller=caller, request=request, now=now)
    result = computed.result
    if not computed.granted:
        memory_cross_scope_read_record(
            tenant_id=caller.tenant_id,
            actor=caller.actor,
            subject_id=subject_id,
            agent_version=agent_version,
            reason_code=computed.denied,
        )
        return result
    ids = [item.id for item in result.items]
    read_id = memory_context_usage_record(
        tenant_id=caller.tenant_id,
        actor=caller.actor,
        subject_id=subject_id,
        agent_version=agent_version,
        read_ids=ids,
        injected_ids=ids,
        token_count=result.token_count,
        token_budget=request.token_budget,
        candidates=computed.candidates,
        conflicts=[c.conflict for c in result.conflicts],
        now=now,
        reason_code=computed.reason_code,
        preview=preview,
        agent=caller.agent,
    )
    if read_id is None:
        return result
    items = tuple(replace(item, citation_id=citation_id(read_id, i)) for i, item in enumerate(result.items))
    return replace(result, items=items)
