"""A read that ranks from the retrieval index and opens only what it shows.

``memory_context_candidates`` opens every visible memory (its content and its vector) before ranking, so a
read's cost grows with what the subject has accumulated. When the subject has a retrieval index
(``memories.read.index``), ``IndexedCandidates`` instead:

1. selects the same rows, through the same filter, with the nonces of their sealed content and vector in
   place of both and only what ranking reads (``stamped.py``), and sorts them as the statement would;
2. takes each row's term counts, length, vector and project names from the index when the entry was made
   from exactly that content and vector, and opens the rest (new or changed since the index was built, and
   the shared rules, which are never indexed) as before; a Chinese query term the index cannot count
   exactly (longer than the indexed runs, or one that can overlap itself) is counted in the text of the
   memories that hold one of its runs;
3. after ranking, opens the content of the memories that can be shown (``open_contents``), only if it is
   still the content step 1 selected (a memory edited or deleted meanwhile is left out), with the columns
   that only show in their line.

Ranking gets the same counts, lengths, vectors and mentions either way, so the result is the same
(``tests/memories/test_retrieval_index.py`` compares every read of the evaluation sets).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial
from typing import Any

import numpy as np
from django.db import DEFAULT_DB_ALIAS, connections

from governance.vocabulary import Level
from memories.models import Memory, MemoryEmbedding
from memories.read.columns import RULE_TYPES, CandidateColumns
from memories.read.features import name_key, term_probe
from memories.read.index import IndexView
from memories.read.ranked import Ranking
from memories.read.ranking import project_mention, query_plan, rank_columns, semantic_query
from memories.read.scope import (
    CANDIDATE_LIMIT,
    DISPLAY_FIELDS,
    ContextCandidate,
    ReadGrant,
    memory_context_rows,
    uuid_text,
)
from memories.read.sealed import SealedOpener
from memories.read.segment import QueryTerm, query_matcher
from memories.read.semantic import VectorMatrix
from memories.read.stamped import StampedRows
from vault.envelope import nonce_of

_SLUG = re.compile(r"[A-Za-z0-9_-]+")
_MEMORY = Memory._meta.label_lower


class IndexedCandidates:
    """The visible memories of one read, ranked from the subject's index (module docstring).

    Candidate i is row i of the candidate statement; ranking reads ``columns``, and ``candidate(i)`` makes
    the candidate itself, for the few a read shows.
    """

    def __init__(
        self, *, grant: ReadGrant, now: datetime, index: IndexView, model: str, limit: int = CANDIDATE_LIMIT
    ) -> None:
        self.tenant_id = grant.tenant_id
        self.model = model
        self.index = index
        self._opener = SealedOpener(grant.tenant_id)
        db = connections[DEFAULT_DB_ALIAS]
        # In no order, so the database doesn't sort whole rows: sorted here, by what the ORDER BY reads.
        # More than the limit, and the database picks the newest.
        select = partial(memory_context_rows, grant=grant, now=now, db=db, model=model, stamps=True)
        selected = select(limit=limit + 1, ordered=False)
        if len(selected) > limit:
            rows = StampedRows(select(limit=limit), db)
        else:
            rows = StampedRows(selected, db).newest_first()
        self._rows = rows
        # Each candidate's entry in the index, if current (-1: none).
        self.entries = rows.entries(index) if index.model == model else np.full(len(rows), -1, dtype=np.int64)
        self._opened: dict[int, tuple[str, np.ndarray | None] | None] = {}
        self._display: dict[int, tuple[Any, ...]] = {}  # DISPLAY_FIELDS of the candidates opened
        self._made: dict[str, int] = {}  # the id of each candidate made so far, and its position
        self.stale = np.flatnonzero(self.entries < 0).tolist()
        self.open_texts(self.stale, vectors=True)
        # A memory that can't be opened (its key destroyed, or changed since it was selected) is no
        # candidate, as in memory_context_candidates.
        lost = [i for i in self.stale if self._opened.get(i) is None]
        if lost:
            self._narrow(lost)
        self.columns: CandidateColumns = rows.columns()

    def __len__(self) -> int:
        return len(self._rows)

    def _narrow(self, lost: list[int]) -> None:
        keep = np.ones(len(self._rows), dtype=bool)
        keep[lost] = False
        kept = np.flatnonzero(keep)
        self._rows = self._rows.take(kept)
        self.entries = self.entries[kept]
        self._opened = {new: self._opened[old] for new, old in enumerate(kept.tolist()) if old in self._opened}
        self._display = {new: self._display[old] for new, old in enumerate(kept.tolist()) if old in self._display}
        self.stale = np.flatnonzero(self.entries < 0).tolist()

    def candidate(self, i: int) -> ContextCandidate:
        """Candidate i: its content and what only shows in its line once opened (``open_texts``), else empty."""
        made = self._rows.candidate(i, content=self._text(i), display=self._display.get(i))
        self._made[made.id] = i
        return made

    def own_stale(self) -> int:
        """How many of the subject's own memories this read could not take from the index (shared rules,
        which are never indexed, left out)."""
        return int(self.columns.own()[self.stale].sum()) if self.stale else 0

    def open_texts(self, positions: Iterable[int], *, vectors: bool = False) -> None:
        """Open the content (and, with ``vectors``, the vector) of these candidates: one statement for those
        not opened yet. A row whose content is no longer the one this read selected (edited meanwhile)
        stays unopened."""
        wanted = [i for i in positions if i not in self._opened]
        if not wanted:
            return
        by_id = {self._rows.id(i): i for i in wanted}
        db = connections[DEFAULT_DB_ALIAS]
        qn = db.ops.quote_name
        table, embedding = qn(Memory._meta.db_table), qn(MemoryEmbedding._meta.db_table)
        marks = ", ".join(["%s"] * len(by_id))
        pk = Memory._meta.pk
        ids = [pk.get_db_prep_value(pk.to_python(memory_id), db) for memory_id in by_id]
        vector = "NULL"
        params: list[object] = ids
        if vectors and self.model:
            vector = f"(SELECT e.vector FROM {embedding} e WHERE e.memory_id = m.id AND e.model = %s)"  # noqa: S608
            params = [self.model, *ids]
        shown = ", ".join(f"m.{qn(Memory._meta.get_field(name).column)}" for name in DISPLAY_FIELDS)
        with db.cursor() as cursor:
            cursor.execute(
                # By primary key alone (with the tenant in the filter SQLite's planner scanned the tenant's
                # rows); the tenant is checked on each row, and its content would not open for another.
                f"SELECT m.id, m.tenant_id, m.content, {vector}, {shown} FROM {table} m"  # noqa: S608
                f" WHERE m.id IN ({marks})",
                params,
            )
            rows = cursor.fetchall()
        for i in wanted:
            self._opened[i] = None
        for memory_id, tenant_id, content, sealed_vector, *display in rows:
            record = uuid_text(memory_id)
            i = by_id[record]
            blob = bytes(content)
            if tenant_id != self.tenant_id or nonce_of(blob) != self._rows.nonce(i):
                continue
            text = self._opener.open(blob, model=_MEMORY, record_id=record, field="content")
            if text is None:
                continue
            opened = None if sealed_vector is None else bytes(sealed_vector)
            self._opened[i] = (text, self._opener.vector(opened, record_id=record))
            self._display[i] = tuple(display)

    def counts(self, terms: tuple[QueryTerm, ...]) -> tuple[np.ndarray, list[float]]:
        """Each term's count in each candidate (terms × candidates) and each candidate's length."""
        n = len(self._rows)
        counts = np.zeros((len(terms), n), dtype=np.int64)
        indexed = np.flatnonzero(self.entries >= 0)
        at_index = self.entries[indexed]
        lengths_array = np.zeros(n)
        lengths_array[indexed] = self.index.lengths[at_index]
        lengths = lengths_array.tolist()
        recount: set[int] = set(self.stale)
        where = np.full(self.index.size, -1, dtype=np.int64)  # entry → candidate, or -1
        where[at_index] = indexed
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
        from_index = self.entries >= 0
        from_index[from_index] = self.index.vector_flags()[self.entries[from_index]]
        own = {i: opened[1] for i in self.stale if (opened := self._opened.get(i)) and opened[1] is not None}
        if not own:
            present = np.flatnonzero(from_index)
            matrix = self.index.vectors[self.entries[present]].astype(np.float32)
            return VectorMatrix(matrix, present, len(self._rows))
        # Rare: memories new since the index was built that have vectors, in their places among the rest.
        present = np.flatnonzero(from_index | np.isin(np.arange(len(self._rows)), list(own)))
        parts = [
            own[i][np.newaxis, :] if i in own else self.index.vectors[self.entries[i]][np.newaxis, :].astype(np.float32)
            for i in present.tolist()
        ]
        return VectorMatrix(np.concatenate(parts), present, len(self._rows))

    def mentioned(self, project: str) -> np.ndarray:
        """Whether each candidate's text names the project as ``ranking.project_mention`` finds it: from
        the index's names where they say exactly that, else from the text."""
        n = len(self._rows)
        mention = project_mention(project)
        if mention is None:
            return np.zeros(n, dtype=bool)
        indexed = self.entries >= 0
        sure = np.zeros(n, dtype=bool)
        if _SLUG.fullmatch(project) is not None:
            sure[indexed] = self.index.exact_mentions()[self.entries[indexed]]
        unsure = np.flatnonzero(indexed & ~sure).tolist()
        self.open_texts(unsure)
        found = np.zeros(n, dtype=bool)
        if sure.any():
            holders = self.index.postings(name_key(project))[0]
            found[sure] = np.isin(self.entries[sure], holders)
        for i in [*unsure, *self.stale]:
            found[i] = mention.found_in(self._text(i))
        return found

    def open_contents(self, candidates: Iterable[ContextCandidate]) -> dict[str, ContextCandidate]:
        """These candidates (made by ``candidate``) opened, by id: with their content and what shows in their
        line; those that no longer open (deleted, erased or edited since this read selected them) are left out."""
        wanted = [self._made[c.id] for c in candidates if c.id in self._made]
        self.open_texts(wanted)
        return {self._rows.id(i): self.candidate(i) for i in wanted if self._opened.get(i) is not None}


def rank_indexed(
    *,
    grant: ReadGrant,
    now: datetime,
    index: IndexView,
    model: str,
    query: str,
    embed_query: Callable[[str], np.ndarray | None],
    team_named: bool,
    project: str,
) -> tuple[Ranking, IndexedCandidates]:
    """``rank_candidates`` over the grant's memories, from the subject's index (``embed_query``: the
    query's vector, or None when the embedder fails)."""
    source = IndexedCandidates(grant=grant, now=now, index=index, model=model)
    vectors = source.vectors() if query.strip() and model else None
    plan = query_plan(query)
    counted = source.counts(plan.terms) if plan.terms and len(source) else None
    query_vector = None
    if vectors is not None and len(vectors.present):
        query_vector = embed_query(semantic_query(query, plan, counted))
    ranking = rank_columns(
        source.columns,
        candidate=source.candidate,
        now=now,
        plan=plan,
        query_vector=query_vector,
        vectors=vectors if query_vector is not None else None,
        team_named=team_named,
        counted=counted,
        mentioned=source.mentioned(project) if project else None,
    )
    return ranking, source


_SHARED_LEVELS = frozenset({Level.TENANT, Level.TEAM})


def looks_own(candidate: ContextCandidate) -> bool:
    """Whether a candidate is one of the subject's own memories rather than a shared rule (rules are
    tenant, team or project level; a project-level memory of the subject's is not a rule)."""
    return candidate.level not in _SHARED_LEVELS and candidate.type not in RULE_TYPES
