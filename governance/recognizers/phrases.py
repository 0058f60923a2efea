"""Phrase lookup for the lexicons: English by whole words, Chinese by substring.

A regex alternation of a few hundred phrases is tried at every position of the text and costs
tens of microseconds per lexicon; looking words up in a dict costs a few for all of them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from governance.recognizers.entities import EntityType

# "_" joins: "project_rule" and "collect_order" are identifiers, not the words project and order.
# "-" and "'" separate: "tech-lead" is "tech lead", "parkinson's" is "parkinson s".
_WORD = re.compile(r"[A-Za-z0-9_]+")
_PHRASE_SYNTAX = re.compile(r"[a-z0-9_]+(?: [a-z0-9_]+)*")
_CLOSING_QUOTE = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "「": "」", "『": "』", "《": "》"}


def _quoted(text: str, start: int, end: int) -> bool:
    """A phrase alone inside quotes is mentioned, not used: '把“退款”类工单归到财务' names a category
    of tickets and says nothing about anyone's refund."""
    return start > 0 and end < len(text) and _CLOSING_QUOTE.get(text[start - 1]) == text[end]


@dataclass(frozen=True)
class Lexicon:
    """The phrases that imply ``entity``.

    ``en``: lowercase phrases, words separated by one space, matched as whole words in any case.
    ``zh``: terms matched anywhere, since Chinese has no word boundaries.
    """

    entity: EntityType
    en: tuple[str, ...] = ()
    zh: tuple[str, ...] = ()
    # A use of a phrase that does not imply the entity after all, told from its context: (text, start, end).
    dropped_when: Callable[[str, int, int], bool] | None = None


class PhraseMatcher:
    """Finds the phrases of many lexicons in one pass over the text."""

    def __init__(self, lexicons: Iterable[Lexicon]) -> None:
        phrases: dict[tuple[str, ...], set[EntityType]] = defaultdict(set)
        zh_terms: dict[str, set[EntityType]] = defaultdict(set)
        for lexicon in lexicons:
            for phrase in lexicon.en:
                if not _PHRASE_SYNTAX.fullmatch(phrase):
                    raise ValueError(f"{lexicon.entity}: not a lowercase, single-spaced phrase: {phrase!r}")
                phrases[tuple(phrase.split(" "))].add(lexicon.entity)
            for term in lexicon.zh:
                if not term:
                    raise ValueError(f"{lexicon.entity}: empty term")
                zh_terms[term].add(lexicon.entity)
        self._dropped_when = {lexicon.entity: lexicon.dropped_when for lexicon in lexicons if lexicon.dropped_when}
        self._phrases = {words: tuple(sorted(entities)) for words, entities in phrases.items()}
        self._first_words = frozenset(words[0] for words in self._phrases)
        self._max_words = max((len(words) for words in self._phrases), default=0)
        by_first_char: dict[str, list[tuple[str, tuple[EntityType, ...]]]] = defaultdict(list)
        for term, entities in zh_terms.items():
            by_first_char[term[0]].append((term, tuple(sorted(entities))))
        self._zh_by_first_char = {char: tuple(terms) for char, terms in by_first_char.items()}

    def find(self, text: str) -> Iterator[tuple[EntityType, int, int]]:
        """(entity, start, end) for each English phrase and the first unquoted use of each Chinese term, unless
        its lexicon drops that use."""
        for entity, start, end in self._find_words(text):
            if not self._dropped(entity, text, start, end):
                yield entity, start, end
        yield from self._find_terms(text)

    def _dropped(self, entity: EntityType, text: str, start: int, end: int) -> bool:
        dropped = self._dropped_when.get(entity)
        return dropped is not None and dropped(text, start, end)

    def _find_words(self, text: str) -> Iterator[tuple[EntityType, int, int]]:
        matches = list(_WORD.finditer(text))
        words = [match.group(0).lower() for match in matches]
        for i, word in enumerate(words):
            if word not in self._first_words:
                continue
            for n in range(1, min(self._max_words, len(words) - i) + 1):
                entities = self._phrases.get(tuple(words[i : i + n]))
                if entities:
                    start, end = matches[i].start(), matches[i + n - 1].end()
                    if not _quoted(text, start, end):
                        for entity in entities:
                            yield entity, start, end

    def _find_terms(self, text: str) -> Iterator[tuple[EntityType, int, int]]:
        for char in set(text).intersection(self._zh_by_first_char):
            for term, entities in self._zh_by_first_char[char]:
                for entity in entities:
                    start = text.find(term)
                    while start >= 0 and (
                        _quoted(text, start, start + len(term)) or self._dropped(entity, text, start, start + len(term))
                    ):
                        start = text.find(term, start + 1)
                    if start >= 0:
                        yield entity, start, start + len(term)
