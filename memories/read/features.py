"""What ranking needs of a memory's text, computed once when it is indexed instead of on every read.

A read counts each query term in each candidate (``segment.QueryMatcher``): Latin terms by stemmed word,
Chinese terms by substring count. ``text_features`` keeps what those counts are made of, so a read can
take them from the subject's retrieval index (``memories.read.index``) without opening the memory:

- each word's stem (``w`` keys) and its count: a Latin term's count is its stem's;
- each run of 1 to ``GRAM_MAX`` Chinese characters (``c`` keys) and how often it occurs, overlaps
  counted: a Chinese term of at most ``GRAM_MAX`` characters that cannot overlap itself occurs exactly
  that often (``str.count`` counts without overlaps, which is the same for such a term); any other Chinese
  term occurs only where one of its runs does, so those memories are opened and counted as before
  (``gram_probe``);
- the text's length on the word scale, exactly as ``QueryMatcher`` computes it;
- each name (a run of ``[A-Za-z0-9_-]``, ``n`` keys), so that a text naming the requested project is
  found as ``ranking.project_mention`` finds it. ``mention_exact`` is false for the rare text holding a
  character that case-insensitive matching folds onto an ASCII letter (İ ı ſ K): such a text is opened.

Keys are 64-bit BLAKE2b digests of the kind and the string. They are derived from content, so they only
ever live inside the sealed index.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from typing import NamedTuple

from memories.read.segment import CJK_CHARS_PER_WORD, CJK_RUN, LATIN_WORD, QueryTerm, measure, stem

GRAM_MAX = 4  # Chinese runs of up to this many characters are indexed
_NAME = re.compile(r"[A-Za-z0-9_-]+")
# Characters that re.IGNORECASE (or str.lower) folds onto an ASCII letter or digit: İ ı ſ K.
CASE_FOLDING_TO_ASCII = frozenset("\u0130\u0131\u017f\u212a")


class TextFeatures(NamedTuple):
    length: float  # words, Chinese characters counted as 1 / CJK_CHARS_PER_WORD word
    counts: dict[int, int]  # key → count (a name's count is 1)
    mention_exact: bool  # its names are what ``project_mention`` would find


def key_of(kind: str, text: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{kind}\x1f{text}".encode(), digest_size=8).digest(), "little")


def text_features(text: str) -> TextFeatures:
    lowered = text.lower()
    ascii_words, length, cjk_chars = measure(lowered)
    words = LATIN_WORD.findall(lowered) if ascii_words is None else ascii_words
    grams: Counter[tuple[str, str]] = Counter(("w", stem(word)) for word in words)
    if cjk_chars:
        for run in CJK_RUN.findall(lowered):
            for size in range(1, min(GRAM_MAX, len(run)) + 1):
                grams.update(("c", run[at : at + size]) for at in range(len(run) - size + 1))
    counts = {key_of(kind, value): count for (kind, value), count in grams.items()}
    for name in {match.lower() for match in _NAME.findall(text)}:
        counts[key_of("n", name)] = 1
    exact = text.isascii() or not any(char in CASE_FOLDING_TO_ASCII for char in text)
    return TextFeatures(length + cjk_chars / CJK_CHARS_PER_WORD, counts, exact)


def _overlaps_itself(text: str) -> bool:
    return any(text[:size] == text[-size:] for size in range(1, len(text)))


class TermProbe(NamedTuple):
    key: int | None  # the key to look up; None: no indexed key can rule a memory out
    exact: bool  # the key's count is the term's count; else only a memory holding the key may hold the term


def term_probe(term: QueryTerm) -> TermProbe:
    """How a query term is counted from the index."""
    if not term.cjk:
        return TermProbe(key_of("w", term.text), exact=True)
    text = term.text
    runs = CJK_RUN.findall(text)
    if not runs:  # no Chinese character to look for: every memory with Chinese text is counted from its text
        return TermProbe(None, exact=False)
    if len(runs) == 1 and runs[0] == text and len(text) <= GRAM_MAX and not _overlaps_itself(text):
        return TermProbe(key_of("c", text), exact=True)
    return TermProbe(key_of("c", max(runs, key=len)[:GRAM_MAX]), exact=False)


def name_key(slug: str) -> int:
    return key_of("n", slug.lower())
