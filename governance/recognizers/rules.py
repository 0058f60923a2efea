"""The building block of every recognizer: a compiled regex, an optional validator, an entity type.

Boundaries are written as lookarounds on ASCII letters and digits, never ``\\b``: Python counts
Chinese characters as word characters, so in "身份证320102199503014564帮我" there is no ``\\b`` before
the digits, and a ``\\b``-anchored pattern would miss the id entirely.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from governance.pipeline.screen import screen
from governance.recognizers.entities import EntityType

NOT_AFTER_ALNUM = r"(?<![0-9A-Za-z])"
NOT_BEFORE_ALNUM = r"(?![0-9A-Za-z])"
# A secret's value: printable ASCII up to whitespace, quotes, separators or CJK punctuation.
SECRET_VALUE = r"[^\s\"'`“”‘’,;，。；、()（）\[\]{}<>\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"

Validator = Callable[[re.Match[str]], bool]


def normalize_text(text: str) -> str:
    """The text every recognizer reads: the write gate's one normalization pass
    (:func:`governance.pipeline.screen.screen` — NFKC, invisibles, look-alikes, entities, spaced-out
    letters and digits). Chinese input methods produce full-width forms ("３２０１０２…", "ｓｋ－"),
    and a zero-width space inside a key would otherwise hide it from every pattern."""
    return screen(text)


@dataclass(frozen=True, slots=True)
class Rule:
    """One pattern: every match its validator accepts is reported as ``entity``.

    ``group`` names the part of the match that is the sensitive value (the span reported), so a
    rule may match its context ("password is …") while reporting only the value. ``hints`` are
    lowercase substrings of which at least one must occur for the pattern to possibly match: a
    substring test is a hundred times cheaper than a regex scan, and most texts hold no hint.
    """

    entity: EntityType
    pattern: re.Pattern[str]
    validate: Validator | None = None
    group: int | str = 0
    hints: tuple[str, ...] = ()

    def might_match(self, lowered: str) -> bool:
        """False when no hint occurs in ``lowered`` (the text, lower-cased), so the regex can't match."""
        return not self.hints or any(map(lowered.__contains__, self.hints))

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Where the rule matches ``text`` and its validator agrees."""
        for match in self.pattern.finditer(text):
            if self.validate is None or self.validate(match):
                yield match.span(self.group)


@dataclass(frozen=True, slots=True)
class ScanRule:
    """A rule whose finder reads the whole text (a name and its value, a word and what follows it)
    and yields the spans of the sensitive values it finds."""

    entity: EntityType
    find: Callable[[str], Iterator[tuple[int, int]]]
    hints: tuple[str, ...] = ()

    def might_match(self, lowered: str) -> bool:
        return not self.hints or any(map(lowered.__contains__, self.hints))

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        return self.find(text)


# The hints of a rule that needs a digit somewhere in the text.
DIGITS = tuple("0123456789")


def has_letter_and_digit(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
