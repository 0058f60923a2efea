"""Required-substring prefilters for the lexicon regexes: skip a scan that cannot match.

Python's ``re`` tries every alternative of a lexicon at every position of the text, and the
lexicons are large alternations: on a typical candidate, the regex scans were about 40% of a
write's instructions, nearly all of them scans that found nothing. Most patterns can only match
where one of a few literal words occurs ("approv", "review", "审批"…), and a substring test is far
cheaper than a scan. :func:`required_literals` derives those words from the pattern itself (its
parse tree), so a lexicon can't drift from its prefilter, and :class:`Lexicon` looks for them with
an Aho-Corasick automaton (one pass over the text, however many words) before running the regex.

The test is a necessary condition, never a guess: every match of the pattern contains one of the
literals of each required set, compared lower-cased (a weaker test than the pattern's own, so
case-insensitive patterns are covered). Text holding one of the few characters that ``re``'s
IGNORECASE matches beyond ``str.lower()`` (dotless ı, long ſ…) skips the prefilter.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import wraps
from re import _casefix  # type: ignore[attr-defined]
from re import _constants as sre
from re import _parser as sre_parse
from threading import Lock
from typing import Any, ParamSpec, TypeVar

import ahocorasick

# Longest a set of alternatives may grow while literals are concatenated; beyond it, stop extending.
_MAX_ALTERNATIVES = 64
_SMALL_CLASS = 8

# Characters IGNORECASE matches as another letter whose str.lower() differs (re._casefix).
_UNFOLDABLE = frozenset(
    char for key, extra in _casefix._EXTRA_CASES.items() for char in (chr(key), *map(chr, extra)) if not char.isascii()
)
_UNFOLDABLE_RE = re.compile("[" + re.escape("".join(sorted(_UNFOLDABLE))) + "]")

Literals = frozenset[str]


class _Shape:
    """What a piece of a pattern matches: ``exact`` (all its strings, when few) and ``required``
    (sets of literals: each set has one member inside every match)."""

    __slots__ = ("exact", "required")

    def __init__(self, exact: Literals | None, required: tuple[Literals, ...] = ()) -> None:
        self.exact = exact
        self.required = required


_EMPTY = _Shape(frozenset({""}))
_OPAQUE = _Shape(None)


def _useful(literals: Literals | None) -> bool:
    return bool(literals) and "" not in literals  # type: ignore[operator]


def _as_requirements(shape: _Shape) -> tuple[Literals, ...]:
    if shape.required:
        return shape.required
    return (shape.exact,) if _useful(shape.exact) else ()  # type: ignore[return-value]


def _cost(literals: Literals) -> tuple[int, int]:
    """Better first: longer shortest literal (more selective, up to 4), then fewer literals (cheaper)."""
    return (-min(4, min(map(len, literals))), len(literals))


def _sequence(items: Any) -> _Shape:
    run: Literals | None = frozenset({""})
    exact_throughout = True
    found: list[Literals] = []

    def close_run() -> None:
        if _useful(run):
            found.append(run)  # type: ignore[arg-type]

    for op, av in items:
        piece = _node(op, av)
        if piece.exact is not None and run is not None and len(run) * len(piece.exact) <= _MAX_ALTERNATIVES:
            run = frozenset(a + b for a in run for b in piece.exact)
            continue
        exact_throughout = False
        close_run()
        if piece.exact is not None and len(piece.exact) <= _MAX_ALTERNATIVES:
            run = piece.exact
        else:
            found.extend(_as_requirements(piece))
            run = frozenset({""})
    close_run()
    required = tuple(sorted(set(found), key=_cost)[:2])
    return _Shape(run if exact_throughout else None, required)


def _branch(alternatives: list[Any]) -> _Shape:
    shapes = [_sequence(alternative) for alternative in alternatives]
    exact: Literals | None = None
    if all(shape.exact is not None for shape in shapes):
        exact = frozenset().union(*(shape.exact for shape in shapes))  # type: ignore[misc]
        if len(exact) > _MAX_ALTERNATIVES:
            exact = None
    union: set[str] = set()
    for shape in shapes:
        options = _as_requirements(shape)
        if not options:
            return _Shape(exact)
        union |= min(options, key=_cost)
    return _Shape(exact, (frozenset(union),))


def _char_class(items: Any) -> _Shape:
    if len(items) <= _SMALL_CLASS and all(op is sre.LITERAL for op, _ in items):
        return _Shape(frozenset(chr(av) for _, av in items))
    return _OPAQUE


def _repeat(low: int, high: int, body: Any) -> _Shape:
    inner = _sequence(body)
    if low == 0:
        if high == 1 and inner.exact is not None:
            return _Shape(inner.exact | {""})
        return _Shape(None)
    if low == high == 1:
        return inner
    return _Shape(None, _as_requirements(inner))


def _node(op: Any, av: Any) -> _Shape:
    if op is sre.LITERAL:
        return _Shape(frozenset({chr(av)}))
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return _EMPTY  # zero-width: adds nothing to the matched text
    if op is sre.SUBPATTERN:
        return _sequence(av[3])
    if op is sre.ATOMIC_GROUP:
        return _sequence(av)
    if op is sre.BRANCH:
        return _branch(av[1])
    if op is sre.IN:
        return _char_class(av)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        return _repeat(av[0], av[1], av[2])
    return _OPAQUE


def required_literals(pattern: str, flags: int = 0) -> tuple[Literals, ...]:
    """Sets of lower-case literals; every match of ``pattern`` contains a member of each set.

    Empty when the pattern has no such literals (e.g. it can match digits alone)."""
    shape = _sequence(sre_parse.parse(pattern, flags))
    required = []
    for literals in _as_requirements(shape):
        if any(char in _UNFOLDABLE or len(char.lower()) != 1 for literal in literals for char in literal):
            continue  # a literal re matches in ways str.lower() can't reproduce
        required.append(frozenset(literal.lower() for literal in literals))
    return tuple(required)


def _automaton(literals: Iterable[str]) -> ahocorasick.Automaton:
    automaton = ahocorasick.Automaton()
    for literal in literals:
        automaton.add_word(literal, literal)
    automaton.make_automaton()
    return automaton


# Every Lexicon's literals, for :func:`scanning`'s one pass over a whole text.
_registry: set[str] = set()
_lexicons: list[Lexicon] = []
_all_literals: list[ahocorasick.Automaton] = []  # [automaton over _registry], rebuilt when it grows
_registry_lock = Lock()


@dataclass(slots=True)
class _Scan:
    """What one :func:`scanning` block knows about its text; dropped when the block ends."""

    lowered: str
    present: frozenset[str]  # the lexicon literals found in ``lowered``
    known: int  # how many lexicons were registered when it began: a later one wasn't looked for
    open: bool = True  # False once the block has ended (a context copied inside it may still hold it)
    verdicts: dict[Lexicon, bool] = field(default_factory=dict)  # may_match of the text's parts
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # see :func:`memoized_in_scan`
    parts: dict[str, bool] = field(default_factory=dict)  # texts checked: are they part of ``lowered``?

    def covers(self, text: str) -> bool:
        """Whether ``text``, lower-cased, is part of the scanned text (each text is worked out once)."""
        covered = self.parts.get(text)
        if covered is None:
            covered = self.parts[text] = text.lower() in self.lowered
        return covered


_scan: ContextVar[_Scan | None] = ContextVar("lexicon_scan", default=None)


def _whole_text_automaton() -> ahocorasick.Automaton:
    with _registry_lock:
        if not _all_literals or len(_all_literals[0]) != len(_registry):
            _all_literals[:] = [_automaton(_registry)]
        return _all_literals[0]


def all_lexicons() -> tuple[Lexicon, ...]:
    """Every lexicon built so far (the tests check each prefilter against its regex)."""
    with _registry_lock:
        return tuple(_lexicons)


@contextmanager
def scanning(text: str) -> Iterator[None]:
    """Find every lexicon literal in ``text`` in one pass; checks of ``text`` or of any part of it
    (its sentences, phrases…) inside the block then cost a set lookup. Nothing outlives the block.
    Inside a block whose text already holds ``text``, the block goes on as it is."""
    lowered = text.lower()
    active = _scan.get()
    covered = active is not None and active.open and lowered in active.lowered
    if covered or (not lowered.isascii() and _UNFOLDABLE_RE.search(lowered)):
        yield  # covered already; or no shortcut: checks test their own text
        return
    present = frozenset(literal for _, literal in _whole_text_automaton().iter(lowered))
    scan = _Scan(lowered, present, known=len(_lexicons))
    token = _scan.set(scan)
    try:
        yield
    finally:
        _scan.reset(token)
        # A context copied inside the block keeps this object: leave nothing of the text in it.
        scan.open, scan.lowered, scan.present = False, "", frozenset()
        scan.verdicts.clear()
        scan.memo.clear()
        scan.parts.clear()


_P = ParamSpec("_P")
_R = TypeVar("_R")


def memoized_in_scan(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """``fn`` remembered for the rest of the active :func:`scanning` block, and only there.

    For the pure text helpers the lexicon stages call again and again on the same text (its prepared
    form, its sentences and clauses): arguments must be hashable and the result must depend on them
    alone. A list result is handed out as a copy, so a caller can't change what the next one gets.
    Outside a block, ``fn`` is simply called; nothing (no content) outlives the block.
    """

    @wraps(fn)
    def remembered(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        scan = _scan.get()
        if scan is None or not scan.open:
            return fn(*args, **kwargs)
        key = (fn, args, *kwargs.items())
        try:
            value = scan.memo[key]
        except KeyError:
            value = scan.memo[key] = fn(*args, **kwargs)
        return value.copy() if isinstance(value, list) else value  # type: ignore[return-value]

    return remembered


class Lexicon:
    """A compiled lexicon regex that first checks its required literals (the ``re.Pattern`` API)."""

    __slots__ = ("_automata", "_required", "_serial", "pattern", "regex")

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex
        self.pattern = regex.pattern
        self._required = required_literals(regex.pattern, regex.flags)
        self._automata = tuple(map(_automaton, self._required))
        with _registry_lock:
            _registry.update(*self._required)
            self._serial = len(_lexicons)  # scans that began before it didn't look for its literals
            _lexicons.append(self)

    def may_match(self, text: str) -> bool:
        """False only when the regex cannot match ``text`` (a required literal is missing)."""
        if not self._required:
            return True
        scan = _scan.get()
        if scan is not None and scan.open and self._serial < scan.known and scan.covers(text):
            # A part of the scanned text holds no literal the whole lacks, and no unfoldable character:
            # the verdict is the same for every part, so it is worked out once per block.
            verdict = scan.verdicts.get(self)
            if verdict is None:
                present = scan.present
                verdict = scan.verdicts[self] = not any(literals.isdisjoint(present) for literals in self._required)
            return verdict
        lowered = text.lower()
        if not lowered.isascii() and _UNFOLDABLE_RE.search(lowered):
            return True
        return all(next(automaton.iter(lowered), None) is not None for automaton in self._automata)

    def search(self, text: str, *args: int) -> re.Match[str] | None:
        return self.regex.search(text, *args) if self.may_match(text) else None

    def match(self, text: str, *args: int) -> re.Match[str] | None:
        return self.regex.match(text, *args) if self.may_match(text) else None

    def fullmatch(self, text: str, *args: int) -> re.Match[str] | None:
        return self.regex.fullmatch(text, *args) if self.may_match(text) else None

    def finditer(self, text: str, *args: int) -> Iterator[re.Match[str]]:
        return self.regex.finditer(text, *args) if self.may_match(text) else iter(())

    def findall(self, text: str, *args: int) -> list[Any]:
        return self.regex.findall(text, *args) if self.may_match(text) else []

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        return self.regex.sub(repl, text, count) if self.may_match(text) else text

    def split(self, text: str, maxsplit: int = 0) -> list[str]:
        return self.regex.split(text, maxsplit) if self.may_match(text) else [text]

    @property
    def flags(self) -> int:
        return self.regex.flags

    def __repr__(self) -> str:
        return f"Lexicon({self.regex!r}, required={len(self._required)} sets)"
