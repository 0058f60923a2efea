"""A read that ranks from the retrieval index and opens only what it shows.

``memory_context_candidates`` opens every visible memory (its content and its vector) before ranking, so a
read's cost grows with what the subject has accumulated. When the subject has a retrieval index
(``memories.read.index``), ``IndexedCandidates`` instead:

1. selects the same rows, with the nonces of their sealed content and vector in place of both;
2. takes each row's term counts, length, vector and project names from the index when the entry was made
   from exactly that content and vector, and opens the rest (new or changed since the index was built, and
   the shared rules, which are never indexed) as before; a Chinese query term the index cannot count
   exactly (longer than the indexed runs, or one that can overlap itself) is counted in the text of the
   memories that hold one of its runs;
3. after ranking, opens the content of the memories that can be shown (``open_contents``), only if it is
   still the content step 1 selected (a memory edited or deleted meanwhile is left out).

Ranking gets the same counts, lengths, vectors and mentions either way, so the result is the same
(``tests/memories/test_retrieval_index.py`` compares every read of the evaluation sets).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime

import numpy as np
from django.db import DEFAULT_DB_ALIAS, connections

from governance.vocabulary import Level
from memories.models import Memory, MemoryEmbedding
from memories.read.columns import RULE_TYPES, candidate_columns
from memories.read.features import name_key, term_probe
from memories.read.index import NO_VECTOR, IndexView
from memories.read.ranked import Ranking
from memories.read.ranking import project_mention, query_plan, rank_columns
from memories.read.scope import (
    CANDIDATE_LIMIT,
    ContextCandidate,
    ReadGrant,
    SealedOpener,
    memory_context_rows,
    uuid_text,
)
from memories.read.segment import QueryTerm, query_matcher
from memories.read.semantic import VectorMatrix
from vault.envelope import NONCE_SIZE, nonce_of

_ID, _CONTENT_AT, _UPDATED_AT, _CITED_AT, _VECTOR_AT = (
    ContextCandidate._fields.index(name) for name in ("id", "content", "updated_at", "last_cited_at", "vector")
)
_SLUG = re.compile(r"[A-Za-z0-9_-]+")


_MEMORY = Memory._meta.label_lower


class IndexedCandidates:
    """The visible memories of one read, ranked from the subject's index (module docstring)."""

    def __init__(
        self, *, grant: ReadGrant, now: datetime, index: IndexView, model: str, limit: int = CANDIDATE_LIMIT
    ) -> None:
        self.tenant_id = grant.tenant_id
        self.model = model
        self.index = index
        self._opener = SealedOpener(grant.tenant_id)
        usable = index.model == model
        db = connections[DEFAULT_DB_ALIAS]
        zone = db.timezone
        rows = memory_context_rows(grant=grant, now=now, limit=limit, db=db, model=model, stamps=True)
        self.candidates: list[ContextCandidate] = []
        self.entries: list[int | None] = []  # each candidate's entry in the index, if current
        self._nonces: list[bytes] = []  # each candidate's content nonce, as this read selected it
        for row in rows:
            values = list(row)
            memory_id = values[_ID] = uuid_text(row[_ID])
            nonce = bytes(row[_CONTENT_AT])
            stamp = nonce + (NO_VECTOR if row[_VECTOR_AT] is None else bytes(row[_VECTOR_AT]))
            values[_CONTENT_AT], values[_VECTOR_AT] = "", None
            for name in (_UPDATED_AT, _CITED_AT):
                at = values[name]
                if at is not None and at.tzinfo is None:
                    values[name] = at.replace(tzinfo=zone)
            self.entries.append(_entry_of(index, memory_id, stamp) if usable else None)
            self._nonces.append(nonce)
            self.candidates.append(ContextCandidate._make(values))
        self._opened: dict[int, tuple[str, np.ndarray | None] | None] = {}
        self.stale = [i for i, entry in enumerate(self.entries) if entry is None]
        self.open_texts(self.stale)
        # A memory that can't be opened (its key destroyed, or changed since it was selected) is no
        # candidate, as in memory_context_candidates.
        keep = [i for i, entry in enumerate(self.entries) if entry is not None or self._opened.get(i) is not None]
        if len(keep) != len(self.candidates):
            self._narrow(keep)

    def _narrow(self, keep: list[int]) -> None:
        self.candidates = [self.candidates[i] for i in keep]
        self.entries = [self.entries[i] for i in keep]
        self._nonces = [self._nonces[i] for i in keep]
        self._opened = {new: self._opened[old] for new, old in enumerate(keep) if old in self._opened}
        self.stale = [new for new, old in enumerate(keep) if self.entries[new] is None]

    def own_stale(self) -> int:
        """How many of the subject's own memories this read could not take from the index (shared rules,
        which are never indexed, left out)."""
        return sum(1 for i in self.stale if looks_own(self.candidates[i]))

    def open_texts(self, positions: Iterable[int]) -> None:
        """Open the content (and vector) of these candidates: one statement for those not opened yet. A
        row whose content is no longer the one this read selected (edited meanwhile) stays unopened."""
        wanted = [i for i in positions if i not in self._opened]
        if not wanted:
            return
        by_id = {self.candidates[i].id: i for i in wanted}
        db = connections[DEFAULT_DB_ALIAS]
        qn = db.ops.quote_name
        table, embedding = qn(Memory._meta.db_table), qn(MemoryEmbedding._meta.db_table)
        marks = ", ".join(["%s"] * len(by_id))
        pk = Memory._meta.pk
        ids = [pk.get_db_prep_value(pk.to_python(memory_id), db) for memory_id in by_id]
        with db.cursor() as cursor:
            cursor.execute(
                # By primary key alone (with the tenant in the filter SQLite's planner scanned the tenant's
                # rows); the tenant is checked on each row, and its content would not open for another.
                f"SELECT m.id, m.tenant_id, m.content, (SELECT e.vector FROM {embedding} e"  # noqa: S608
                f" WHERE e.memory_id = m.id AND e.model = %s) FROM {table} m WHERE m.id IN ({marks})",
                [self.model, *ids],
            )
            rows = cursor.fetchall()
        for i in wanted:
            self._opened[i] = None
        for memory_id, tenant_id, content, vector in rows:
            record = uuid_text(memory_id)
            i = by_id[record]
            blob = bytes(content)
            if tenant_id != self.tenant_id or nonce_of(blob) != self._nonces[i]:
                continue
            text = self._opener.open(blob, model=_MEMORY, record_id=record, field="content")
            if text is None:
                continue
            sealed_vector = None if vector is None or not self.model else bytes(vector)
            self._opened[i] = (text, self._opener.vector(sealed_vector, record_id=record))
            self.candidates[i] = self.candidates[i]._replace(content=text)

    def counts(self, terms: tuple[QueryTerm, ...]) -> tuple[np.ndarray, list[float]]:
        """Each term's count in each candidate (terms × candidates) and each candidate's length."""
        n = len(self.candidates)
        counts = np.zeros((len(terms), n), dtype=np.int64)
        lengths = [0.0] * n
        recount: set[int] = set(self.stale)
        where = np.full(self.index.size, -1, dtype=np.int64)  # entry → candidate, or -1
        for i, at in enumerate(self.entries):
            if at is not None:
                lengths[i] = float(self.index.lengths[at])
                where[at] = i
        for row, term in enumerate(terms):
            probe = term_probe(term)
            if probe.key is None:  # counted from the text of every candidate
                recount.update(range(n))
                continue
            docs, found = self.index.postings(probe.key)
            at = where[docs]
            hit = at >= 0
            if probe.exact:
                counts[row, at[hit]] = found[hit]
            else:
                recount.update(at[hit].tolist())
        if recount:
            ordered = sorted(recount)
            self.open_texts(ordered)
            texts = [self._text(i) for i in ordered]
            for i, (frequencies, length) in zip(ordered, query_matcher(terms).frequencies_of(texts), strict=True):
                counts[:, i] = frequencies
                lengths[i] = length
        return counts, lengths

    def _text(self, i: int) -> str:
        opened = self._opened.get(i)
        return "" if opened is None else opened[0]

    def vectors(self) -> VectorMatrix:
        """The candidates' vectors as one float32 matrix, the index's rows converted at once."""
        present: list[int] = []
        parts: list[np.ndarray] = []  # consecutive runs: the index's rows, or one opened vector
        run: list[int] = []  # entries of the index in the current run
        for i, at in enumerate(self.entries):
            if at is None:
                opened = self._opened.get(i)
                if opened is None or opened[1] is None:
                    continue
                if run:
                    parts.append(self.index.vectors[run].astype(np.float32))
                    run = []
                parts.append(opened[1][np.newaxis, :])
            elif self.index.has_vector(at):
                run.append(at)
            else:
                continue
            present.append(i)
        if run:
            parts.append(self.index.vectors[run].astype(np.float32))
        matrix = np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)
        return VectorMatrix(matrix, present, len(self.entries))

    def mentioned(self, project: str) -> list[bool]:
        """Whether each candidate's text names the project as ``ranking.project_mention`` finds it: from
        the index's names where they say exactly that, else from the text."""
        mention = project_mention(project)
        if mention is None:
            return [False] * len(self.candidates)
        plain = _SLUG.fullmatch(project) is not None
        exact = self.index.mention_exact
        unsure = [i for i, at in enumerate(self.entries) if at is not None and not (plain and exact(at))]
        self.open_texts(unsure)
        checked = set(unsure)
        holders = set(self.index.postings(name_key(project))[0].tolist()) if plain else set()
        return [
            mention.found_in(self._text(i)) if at is None or i in checked else at in holders
            for i, at in enumerate(self.entries)
        ]

    def open_contents(self, candidates: Iterable[ContextCandidate]) -> dict[str, str]:
        """The content of these candidates (opened now where not yet), by id; those that no longer open
        (deleted, erased or edited since this read selected them) are left out."""
        position = {c.id: i for i, c in enumerate(self.candidates)}
        wanted = [position[c.id] for c in candidates if c.id in position]
        self.open_texts(wanted)
        return {self.candidates[i].id: self._text(i) for i in wanted if self._opened.get(i) is not None}


def rank_indexed(
    *,
    grant: ReadGrant,
    now: datetime,
    index: IndexView,
    model: str,
    query: str,
    embed_query: Callable[[], np.ndarray | None],
    team_named: bool,
    project: str,
) -> tuple[Ranking, IndexedCandidates]:
    """``rank_candidates`` over the grant's memories, from the subject's index (``embed_query``: the
    query's vector, or None when the embedder fails)."""
    source = IndexedCandidates(grant=grant, now=now, index=index, model=model)
    vectors = source.vectors() if query.strip() and model else None
    query_vector = embed_query() if vectors is not None and vectors.present else None
    plan = query_plan(query)
    ranking = rank_columns(
        candidate_columns(source.candidates),
        candidate=source.candidates.__getitem__,
        now=now,
        plan=plan,
        query_vector=query_vector,
        vectors=vectors if query_vector is not None else None,
        team_named=team_named,
        counted=source.counts(plan.terms) if plan.terms and source.candidates else None,
        mentioned=np.array(source.mentioned(project), dtype=bool) if project else None,
    )
    return ranking, source


def _entry_of(index: IndexView, memory_id: str, stamp: bytes) -> int | None:
    """The memory's entry in the index, if it was made from the content and vector the row holds now."""
    at = index.position(memory_id, stamp)
    if at is not None and stamp[NONCE_SIZE:] != NO_VECTOR and not index.has_vector(at):
        return None  # the row has a vector the index did not keep
    return at


_SHARED_LEVELS = frozenset({Level.TENANT, Level.TEAM})


def looks_own(candidate: ContextCandidate) -> bool:
    """Whether a candidate is one of the subject's own memories rather than a shared rule (rules are
    tenant, team or project level; a project-level memory of the subject's is not a rule)."""
    return candidate.level not in _SHARED_LEVELS and candidate.type not in RULE_TYPES
