"""A read's ranked memories in order, each made into a ``Ranked`` only when the read reaches it.

A read ranks every memory the subject may see (hundreds, for someone who has kept many) and shows ``top_k``
and ``standing_k`` of them, a few more when the budget skips some. ``ranking.rank_columns`` scores all of
them as arrays; ``RankedList`` holds their order and builds the entries the read goes through.

The order is the one ``ranking.py`` documents: best rounded score first, then the newer memory, then the
id. Rounding to six places is monotone, so the unrounded scores order the entries into runs that round
alike; each run is put in its final order (age, then id) when the read first reaches it, and scores are
rounded only there, not for every candidate of every read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, overload

import numpy as np

from memories.read.scope import ContextCandidate


class Ranked(NamedTuple):
    """A candidate with its score and the parts it was made of."""

    candidate: ContextCandidate
    score: float
    relevance: float
    recency: float
    confidence: float
    trust: float
    bm25: float
    lexical: float = 0.0
    semantic: float = 0.0
    cosine: float | None = None  # None: no vector (or no semantic ranking on this read)
    matched: tuple[str, ...] = ()  # the query's terms (or their translations) found in the memory
    standing: bool = False  # in the standing-guidance block, not ranked as relevant
    scoped: bool = False  # of the session, task or project the request named: its relevance has the prior


@dataclass(frozen=True)
class Ranking:
    relevant: Sequence[Ranked]  # about the query, best first
    standing: Sequence[Ranked]  # standing guidance not already relevant, query-independent order
    semantic: bool = False  # a query vector took part


class RankedList(Sequence[Ranked]):
    """Entries in their final order, made on demand.

    ``order``: candidate positions sorted by (``group``, unrounded score descending, ``age``); ``make``
    builds candidate i's entry (its ``score`` rounded). ``group`` (the standing guidance's rank: the named
    scope's rules first) ends a run as a change of rounded score does.
    """

    def __init__(
        self,
        order: np.ndarray,
        *,
        age: np.ndarray,
        make: Callable[[int], Ranked],
        group: np.ndarray | None = None,
    ) -> None:
        self._order = order.tolist()
        self._age, self._group, self._make = age, group, make
        self._made: list[Ranked] = []
        self._next: tuple[int, Ranked] | None = None  # the first entry of the run after the made ones
        self._at = 0  # positions of ``order`` taken so far

    def __len__(self) -> int:
        return len(self._order)

    def _take(self) -> tuple[int, Ranked] | None:
        if self._at >= len(self._order):
            return None
        i = self._order[self._at]
        self._at += 1
        return i, self._make(i)

    def _make_run(self) -> None:
        first = self._next or self._take()
        if first is None:
            return
        run = [first]
        group = None if self._group is None else self._group[first[0]]
        while (following := self._take()) is not None:
            if following[1].score != first[1].score or (group is not None and self._group[following[0]] != group):
                self._next = following
                break
            run.append(following)
        else:
            self._next = None
        if len(run) > 1:  # ties of the rounded score: the newer memory, then the id
            run.sort(key=lambda entry: (int(self._age[entry[0]]), entry[1].candidate.id))
        self._made += [entry for _, entry in run]

    def _reach(self, count: int) -> None:
        while len(self._made) < count and (self._next is not None or self._at < len(self._order)):
            self._make_run()

    @overload
    def __getitem__(self, index: int) -> Ranked: ...

    @overload
    def __getitem__(self, index: slice) -> list[Ranked]: ...

    def __getitem__(self, index: int | slice) -> Ranked | list[Ranked]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            self._reach(stop)
            return self._made[start:stop:step]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("ranked entry out of range")
        self._reach(index + 1)
        return self._made[index]

    def __iter__(self) -> Iterator[Ranked]:
        for index in range(len(self)):
            yield self[index]
