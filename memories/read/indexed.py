"""A read that ranks from the retrieval index and opens only what it shows.

``memory_context_candidates`` opens every visible memory (its content and its vector) before ranking, so a
read's cost grows with what the subject has accumulated. When the subject has a retrieval index
(``memories.read.index``), ``IndexedCandidates`` instead:

1. selects the same rows, with the nonces of their sealed content and vector in place of both;
2. takes each row's term counts, length, vector and project names from its owner's index when the entry
   was made from exactly that content and vector, and opens the rest (new or changed since the index was
   built) as before; a Chinese query term the index cannot count exactly (longer than the indexed runs, or
   one that can overlap itself) is counted in the text of the memories that hold one of its runs;
3. after ranking, opens the content of the memories that can be shown (``open_contents``).

Ranking gets the same counts, lengths, vectors and mentions either way, so the result is the same
(``tests/memories/test_retrieval_index.py`` compares every read of the evaluation sets).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime

import numpy as np
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.db import DEFAULT_DB_ALIAS, connections

from memories.embedding.vectors import unpack_vector
from memories.models import Memory, MemoryEmbedding
from memories.read.features import name_key, term_probe
from memories.read.index import STAMP_SIZE, IndexView
from memories.read.ranking import Ranking, VectorMatrix, project_mention, query_plan, rank_candidates
from memories.read.scope import (
    CANDIDATE_LIMIT,
    ContextCandidate,
    ReadGrant,
    _uuid_text,
    memory_context_rows,
)
from memories.read.segment import QueryTerm, query_matcher
from vault import DecryptionError
from vault.datakeys import data_key_by_id
from vault.envelope import associated_data, key_id_of, open_sealed_with

_ID, _CONTENT_AT, _UPDATED_AT, _CITED_AT, _VECTOR_AT = (
    ContextCandidate._fields.index(name) for name in ("id", "content", "updated_at", "last_cited_at", "vector")
)
_NO_VECTOR = bytes(STAMP_SIZE // 2)
_SLUG = re.compile(r"[A-Za-z0-9_-]+")


class _Opener:
    """Opens sealed values of one tenant with a cipher per data key (None: the key was destroyed)."""

    def __init__(self, tenant_id: int) -> None:
        self.tenant_id = tenant_id
        self._ciphers: dict[int, AESGCM | None] = {}

    def open(self, blob: bytes, *, model: str, record_id: str, field: str) -> str | None:
        try:
            key_id = key_id_of(blob)
            if key_id not in self._ciphers:
                key = data_key_by_id(key_id)
                self._ciphers[key_id] = None if key is None else AESGCM(key)
            cipher = self._ciphers[key_id]
            if cipher is None:
                return None
            aad = associated_data(model=model, tenant_id=self.tenant_id, record_id=record_id, field=field)
            return open_sealed_with(cipher, blob, aad=aad)
        except DecryptionError:
            return None


_MEMORY, _EMBEDDING = Memory._meta.label_lower, MemoryEmbedding._meta.label_lower


class IndexedCandidates:
    """The visible memories of one read, ranked from their indexes (module docstring)."""

    def __init__(
        self,
        *,
        grant: ReadGrant,
        now: datetime,
        indexes: dict[str, IndexView],
        model: str,
        limit: int = CANDIDATE_LIMIT,
    ) -> None:
        self.tenant_id = grant.tenant_id
        self.model = model
        self._opener = _Opener(grant.tenant_id)
        views = [view for view in indexes.values() if view.model == model]
        db = connections[DEFAULT_DB_ALIAS]
        zone = db.timezone
        rows = memory_context_rows(grant=grant, now=now, limit=limit, db=db, model=model, stamps=True)
        self.candidates: list[ContextCandidate] = []
        self.entries: list[tuple[IndexView, int] | None] = []  # each candidate's index entry, if current
        for row in rows:
            values = list(row)
            memory_id = values[_ID] = _uuid_text(row[_ID])
            stamp = bytes(row[_CONTENT_AT]) + (_NO_VECTOR if row[_VECTOR_AT] is None else bytes(row[_VECTOR_AT]))
            values[_CONTENT_AT], values[_VECTOR_AT] = "", None
            for name in (_UPDATED_AT, _CITED_AT):
                at = values[name]
                if at is not None and at.tzinfo is None:
                    values[name] = at.replace(tzinfo=zone)
            self.entries.append(_entry_of(views, memory_id, stamp))
            self.candidates.append(ContextCandidate._make(values))
        self._opened: dict[int, tuple[str, np.ndarray | None] | None] = {}
        self.stale = [i for i, entry in enumerate(self.entries) if entry is None]
        self.open_texts(self.stale)
        # A memory that can't be opened (its key destroyed) is no candidate, as in memory_context_candidates.
        keep = [
            i for i in range(len(self.candidates)) if self.entries[i] is not None or self._opened.get(i) is not None
        ]
        if len(keep) != len(self.candidates):
            self._narrow(keep)

    def _narrow(self, keep: list[int]) -> None:
        self.candidates = [self.candidates[i] for i in keep]
        self.entries = [self.entries[i] for i in keep]
        self._opened = {new: self._opened[old] for new, old in enumerate(keep) if old in self._opened}
        self.stale = [new for new, old in enumerate(keep) if self.entries[new] is None]

    def open_texts(self, positions: Iterable[int]) -> None:
        """Open the content (and vector) of these candidates: one statement for those not opened yet."""
        wanted = [i for i in positions if i not in self._opened]
        if not wanted:
            return
        by_id = {self.candidates[i].id: i for i in wanted}
        qn = connections[DEFAULT_DB_ALIAS].ops.quote_name
        table, embedding = qn(Memory._meta.db_table), qn(MemoryEmbedding._meta.db_table)
        marks = ", ".join(["%s"] * len(by_id))
        pk = Memory._meta.pk
        db = connections[DEFAULT_DB_ALIAS]
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
            if tenant_id != self.tenant_id:
                continue
            record = _uuid_text(memory_id)
            i = by_id[record]
            text = self._opener.open(bytes(content), model=_MEMORY, record_id=record, field="content")
            if text is None:
                continue
            opened = None
            if vector is not None and self.model:
                packed = self._opener.open(bytes(vector), model=_EMBEDDING, record_id=record, field="vector")
                opened = None if packed is None else unpack_vector(packed)
            self._opened[i] = (text, opened)
            self.candidates[i] = self.candidates[i]._replace(content=text)

    def counts(self, terms: tuple[QueryTerm, ...]) -> tuple[np.ndarray, list[float]]:
        """Each term's count in each candidate (terms × candidates) and each candidate's length."""
        n = len(self.candidates)
        counts = np.zeros((len(terms), n), dtype=np.int64)
        lengths = [0.0] * n
        recount: set[int] = set(self.stale)
        by_view: dict[int, tuple[IndexView, np.ndarray]] = {}  # id(view) → (view, entry → candidate or -1)
        for i, entry in enumerate(self.entries):
            if entry is None:
                continue
            view, at = entry
            lengths[i] = float(view.lengths[at])
            if id(view) not in by_view:
                by_view[id(view)] = (view, np.full(view.size, -1, dtype=np.int64))
            by_view[id(view)][1][at] = i
        for row, term in enumerate(terms):
            probe = term_probe(term)
            for view, where in by_view.values():
                if probe.key is None:  # counted from the text of every indexed candidate
                    recount.update(int(i) for i in where[where >= 0])
                    continue
                docs, found = view.postings(probe.key)
                at = where[docs]
                hit = at >= 0
                if probe.exact:
                    counts[row, at[hit]] = found[hit]
                else:
                    recount.update(at[hit].tolist())
        if recount:
            ordered = sorted(recount)
            self.open_texts(ordered)
            matcher = query_matcher(terms)
            texts = [self._text(i) for i in ordered]
            for i, (frequencies, length) in zip(ordered, matcher.frequencies_of(texts), strict=True):
                counts[:, i] = frequencies
                lengths[i] = length
        return counts, lengths

    def _text(self, i: int) -> str:
        opened = self._opened.get(i)
        return "" if opened is None else opened[0]

    def vectors(self) -> VectorMatrix:
        """The candidates' vectors as one float32 matrix: an index's rows converted at once."""
        present: list[int] = []
        rows: list[np.ndarray] = []  # one array per run of candidates from one source
        pending: tuple[IndexView, list[int]] | None = None
        for i, entry in enumerate(self.entries):
            if entry is None:
                opened = self._opened.get(i)
                if opened is None or opened[1] is None:
                    continue
                if pending is not None:
                    rows.append(pending[0].vectors[pending[1]].astype(np.float32))
                    pending = None
                rows.append(opened[1][np.newaxis, :])
            elif entry[0].has_vector(entry[1]):
                view, at = entry
                if pending is not None and pending[0] is not view:
                    rows.append(pending[0].vectors[pending[1]].astype(np.float32))
                    pending = None
                if pending is None:
                    pending = (view, [])
                pending[1].append(at)
            else:
                continue
            present.append(i)
        if pending is not None:
            rows.append(pending[0].vectors[pending[1]].astype(np.float32))
        matrix = np.concatenate(rows) if rows else np.zeros((0, 0), dtype=np.float32)
        return VectorMatrix(matrix, present, len(self.entries))

    def mentioned(self, project: str) -> list[bool]:
        """Whether each candidate's text names the project as ``ranking.project_mention`` finds it: from
        the index's names where they say exactly that, else from the text."""
        mention = project_mention(project)
        if mention is None:
            return [False] * len(self.candidates)
        plain = _SLUG.fullmatch(project) is not None
        key = name_key(project)
        holders: dict[int, set[int]] = {}
        unsure = []
        for i, entry in enumerate(self.entries):
            if entry is None:
                continue
            view, at = entry
            if not (plain and view.mention_exact(at)):
                unsure.append(i)
            elif id(view) not in holders:
                holders[id(view)] = set(view.postings(key)[0].tolist())
        self.open_texts(unsure)
        checked = set(unsure)
        return [
            mention.found_in(self._text(i)) if entry is None or i in checked else entry[1] in holders[id(entry[0])]
            for i, entry in enumerate(self.entries)
        ]

    def open_contents(self, candidates: Iterable[ContextCandidate]) -> dict[str, str]:
        """The content of these candidates (opened now where not yet), by id."""
        position = {c.id: i for i, c in enumerate(self.candidates)}
        wanted = [position[c.id] for c in candidates if c.id in position]
        self.open_texts(wanted)
        return {self.candidates[i].id: self._text(i) for i in wanted}


def rank_indexed(
    *,
    grant: ReadGrant,
    now: datetime,
    indexes: dict[str, IndexView],
    model: str,
    query: str,
    embed_query: Callable[[], np.ndarray | None],
    team_named: bool,
    project: str,
) -> tuple[Ranking, IndexedCandidates]:
    """``rank_candidates`` over the grant's memories, from their indexes (``embed_query``: the query's
    vector, or None when the embedder fails)."""
    source = IndexedCandidates(grant=grant, now=now, indexes=indexes, model=model)
    vectors = source.vectors() if query.strip() and model else None
    query_vector = embed_query() if vectors is not None and vectors.present else None
    plan = query_plan(query)
    ranking = rank_candidates(
        source.candidates,
        query=query,
        now=now,
        query_vector=query_vector,
        vectors=vectors if query_vector is not None else None,
        plan=plan,
        team_named=team_named,
        project=project,
        counted=source.counts(plan.terms) if plan.terms else None,
        mentioned=source.mentioned(project),
    )
    return ranking, source


def _entry_of(views: list[IndexView], memory_id: str, stamp: bytes) -> tuple[IndexView, int] | None:
    """The memory's entry in its owner's index, if it was made from the content and vector the row holds."""
    for view in views:
        at = view.position(memory_id, stamp)
        if at is None:
            continue
        if stamp[STAMP_SIZE // 2 :] != _NO_VECTOR and not view.has_vector(at):
            return None  # the row has a vector the index did not keep
        return view, at
    return None
