"""What ranking reads of the candidates besides their text, one array per field (row i: candidate i).

A read ranks every memory the subject may see; ranking them as arrays costs the same for 300 as for 30,
where a Python object per candidate cost microseconds each. ``candidate_columns`` makes the arrays from
opened candidates, ``row_columns`` straight from the candidate statement's columns (``indexed.py``).

Dates are whole microseconds since the epoch (UTC), so a memory's age is exact, as the ``timedelta``
it replaces was: ``age.total_seconds()`` is the microseconds over 10⁶, correctly rounded, and so is the
same division in float64.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

import numpy as np

from governance.vocabulary import Level, MemoryType, SourceType
from memories.read.scope import ContextCandidate

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)
NEVER = np.iinfo(np.int64).min  # a date that is not there (no citation yet)

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
RULE_TYPES = frozenset({MemoryType.PROJECT_RULE, MemoryType.ORGANIZATION_RULE})
NAMED_LEVELS = frozenset({Level.SESSION, Level.TASK, Level.PROJECT})
_OWN_RANKED = (Level.USER, Level.PROJECT, Level.TEAM)  # the levels standing_rank tells apart


class _Codes(dict[str, int]):
    """A value's code: its place in the vocabulary, 0 for a value outside it (looked up in C by ``map``)."""

    def __init__(self, values: Iterable[str]) -> None:
        super().__init__((str(value), code) for code, value in enumerate(values, start=1))

    def __missing__(self, key: str) -> int:
        return 0

    def of(self, values: Sequence[str]) -> np.ndarray:
        return np.fromiter(map(self.__getitem__, values), dtype=np.intp, count=len(values))

    def table(self, test: object) -> np.ndarray:
        """What ``test`` (a callable on a value) says of each code, as a lookup array (code 0: False)."""
        return np.array([False, *(bool(test(value)) for value in self)], dtype=bool)  # type: ignore[operator]


_LEVELS = _Codes(Level)
_TYPES = _Codes(MemoryType)
_SOURCES = _Codes(SOURCE_TRUST)
_TRUST = np.array([UNKNOWN_SOURCE_TRUST, *SOURCE_TRUST.values()], dtype=np.float64)
_RULE = _TYPES.table(lambda value: value in RULE_TYPES)
_GUIDANCE = _TYPES.table(lambda value: value in STANDING_TYPES)
_NAMED = _LEVELS.table(lambda value: value in NAMED_LEVELS)
_SHARED = _LEVELS.table(lambda value: value in (Level.TENANT, Level.TEAM))
_USER, _PROJECT, _TEAM = (_LEVELS.table(lambda value, level=level: value == level) for level in _OWN_RANKED)


class CandidateColumns(NamedTuple):
    level: np.ndarray  # codes of ``Level`` (0: another value)
    type: np.ndarray  # codes of ``MemoryType``
    tagged: np.ndarray  # bool: tagged with a project
    confidence: np.ndarray  # float64, as stored
    trust: np.ndarray  # float64, SOURCE_TRUST of its source
    fresh: np.ndarray  # int64 µs: the later of updated_at and last_cited_at

    @property
    def count(self) -> int:
        return len(self.confidence)

    def rule(self) -> np.ndarray:
        return _RULE[self.type]

    def named(self) -> np.ndarray:
        """``ranking.in_named_scope`` without the mention: session, task or project level, or tagged."""
        return _NAMED[self.level] | self.tagged

    def standing_rank(self, *, team_named: bool) -> np.ndarray:
        """``ranking.standing_rank`` of each candidate, -1 for none."""
        rules = _RULE[self.type] & (_PROJECT[self.level] | (_TEAM[self.level] & team_named))
        return np.where(rules, 0, np.where(_GUIDANCE[self.type] & _USER[self.level], 1, -1))

    def own(self) -> np.ndarray:
        """``indexed.looks_own`` of each candidate: not a shared rule."""
        return ~(_SHARED[self.level] | _RULE[self.type])

    def take(self, keep: np.ndarray) -> CandidateColumns:
        return CandidateColumns(*(column[keep] for column in self))


def row_columns(
    *,
    levels: Sequence[str],
    types: Sequence[str],
    projects: Sequence[str],
    source_types: Sequence[str],
    confidences: Sequence[float],
    fresh: np.ndarray,
) -> CandidateColumns:
    """The columns of candidates given field by field (``fresh``: ``fresh_of`` their dates)."""
    count = len(levels)
    return CandidateColumns(
        level=_LEVELS.of(levels),
        type=_TYPES.of(types),
        tagged=np.fromiter(map(bool, projects), dtype=bool, count=count),
        confidence=np.array(confidences, dtype=np.float64).reshape(count),
        trust=_TRUST[_SOURCES.of(source_types)],
        fresh=fresh,
    )


def fresh_of(updated: np.ndarray, cited: np.ndarray) -> np.ndarray:
    """The later of each memory's update and last citation (µs; ``NEVER`` for no citation)."""
    return np.maximum(updated, cited)


def epoch_us(at: datetime | None) -> int:
    """An aware date as whole microseconds since the epoch; ``NEVER`` for None."""
    return NEVER if at is None else (at - EPOCH) // MICROSECOND


def candidate_columns(candidates: Sequence[ContextCandidate]) -> CandidateColumns:
    """The columns of opened candidates."""
    count = len(candidates)
    updated = np.fromiter((epoch_us(c.updated_at) for c in candidates), dtype=np.int64, count=count)
    cited = np.fromiter((epoch_us(c.last_cited_at) for c in candidates), dtype=np.int64, count=count)
    return row_columns(
        levels=[c.level for c in candidates],
        types=[c.type for c in candidates],
        projects=[c.project for c in candidates],
        source_types=[c.source_type for c in candidates],
        confidences=[c.confidence for c in candidates],
        fresh=fresh_of(updated, cited),
    )
