"""Lexical terms for ranking, in Chinese and English alike.

Chinese has no spaces, so words come from jieba's segmentation; English words come from a regular
expression, lower-cased and reduced by a light stemmer (``stem``: plurals, -ing/-ed/-ment).

Only the *query* is segmented with jieba. A memory's Chinese text is matched by counting each query
word in it (``str.count``): segmenting every candidate costs ~0.1 ms per short memory with jieba,
i.e. ~10 ms for a subject's hundred memories, which is the whole latency budget of a read. Counting
the query's words (jieba's search mode also yields the parts of long compounds) finds the same
words, and a compound's parts besides.

jieba's dictionary (the one shipped with the package) is a table mapped from MEMGOV_VAR_DIR, shared by
every process of the machine (:mod:`memories.read.word_table`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

# CJK ideographs (with extension A and compatibility ideographs) and Japanese kana.
CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff"
CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
CJK_CHAR = re.compile(f"[{CJK_CHARS}]")
# A word in any other script: letters and digits, not underscores, not CJK.
LATIN_WORD = re.compile(rf"[^\W_{CJK_CHARS}]+")
# The same on lower-cased ASCII text (most English memories), where the plain range scans ~3× faster.
_ASCII_WORD = re.compile(r"[a-z0-9]+")
# One pass for a text's length: a LATIN_WORD match yields "", a CJK run yields itself.
_WORD_OR_CJK_RUN = re.compile(rf"[^\W_{CJK_CHARS}]+|([{CJK_CHARS}]+)")
# An average jieba word is 1.5–1.7 characters; used to put Chinese text lengths on the word scale.
CJK_CHARS_PER_WORD = 1.6

# Words too common to tell memories apart (split on whitespace).
ENGLISH_STOPWORDS = frozenset(
    str.split(
        """a an and are as at be but by can could do does for from had has have how i if in into is it its me my
        no not of on or our please should so than that the their them then there these they this to us was we
        were what when where which who why will with would you your"""
    )
)
CHINESE_STOPWORDS = frozenset(
    str.split(
        """的 了 是 我 你 他 她 它 们 我们 你们 在 和 与 及 或 就 都 也 还 吗 呢 吧 啊 呀 把 被 请 一下 这 那 这个 那个
        什么 怎么 怎样 如何 一个 有 没有 会 能 可以 给 让 对 从 为 为了 上 下 中 里 着 过 得 地"""
    )
)

_jieba_lock = threading.Lock()
_jieba: Any = None


def jieba_tokenizer() -> Any:
    """The process's jieba tokenizer on the mapped dictionary (:mod:`memories.read.word_table`), opened on
    first use (milliseconds once the machine has built the table; later calls are free)."""
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                from memories.read.word_table import tokenizer

                _jieba = tokenizer()
    return _jieba


def s_stem(word: str) -> str:
    """Harman's S stemmer (1991): plural endings only."""
    if len(word) > 3 and word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if len(word) > 2 and word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def stem(word: str) -> str:
    """A light English stemmer: plurals (S stemmer), then -ment/-ing/-ed, a doubled consonant, a final e.

    deploy, deploys, deployed, deploying, deployment → deploy; update(s/d), updating → updat;
    shipped, shipping → ship. Queries and memories go through the same function, so an imperfect
    stem (speed → spe) still matches its own forms. Suffixes come off only when 3+ letters remain.
    """
    word = s_stem(word)
    for suffix in ("ment", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]
            break
    if len(word) >= 5 and word.endswith("e"):
        word = word[:-1]
    return word


@dataclass(frozen=True)
class QueryTerm:
    text: str
    cjk: bool  # matched by substring count in the memory's text, else by word


def query_terms(text: str) -> tuple[QueryTerm, ...]:
    """The distinct, non-stopword terms of a query, Chinese segmented by jieba (search mode)."""
    seen: dict[QueryTerm, None] = {}
    lowered = text.lower()
    position = 0
    for run in CJK_RUN.finditer(lowered):
        _latin_terms(lowered[position : run.start()], seen)
        for word in jieba_tokenizer().cut_for_search(run.group(), HMM=True):
            if word not in CHINESE_STOPWORDS and CJK_CHAR.search(word):
                seen.setdefault(QueryTerm(word, cjk=True), None)
        position = run.end()
    _latin_terms(lowered[position:], seen)
    return tuple(seen)


def query_without(text: str, terms: tuple[QueryTerm, ...]) -> str:
    """The query with the words of ``terms`` taken out: Latin words whose stem is one of them, and each
    Chinese term wherever it occurs."""
    latin = {term.text for term in terms if not term.cjk}
    kept = LATIN_WORD.sub(lambda word: "" if stem(word.group().lower()) in latin else word.group(), text)
    for term in terms:
        if term.cjk:
            kept = kept.replace(term.text, " ")
    return " ".join(kept.split())


def _latin_terms(text: str, seen: dict[QueryTerm, None]) -> None:
    for word in LATIN_WORD.findall(text):
        if word not in ENGLISH_STOPWORDS:
            seen.setdefault(QueryTerm(stem(word), cjk=False), None)


@dataclass(frozen=True)
class QueryMatcher:
    """Counts a query's terms in memories: Latin terms by stemmed word, Chinese terms by substring.

    ``stems`` memoizes stemming for one request only (memory words are content: nothing derived from
    them outlives the read).
    """

    terms: tuple[QueryTerm, ...]
    by_stem: dict[str, int]  # stem → index of its term
    cjk: tuple[tuple[int, str], ...]  # (index, term)
    stems: dict[str, str]
    # The words of a text that start with a Latin term's probe (see ``stem_probe``): only they can stem to
    # a term, so only they are stemmed and looked up. None when the query has no Latin term.
    latin_probe: re.Pattern[str] | None = None

    def frequencies(self, text: str) -> tuple[list[int], float]:
        """Each term's count in ``text``, and the text's length in words (CJK characters / 1.6)."""
        return self.frequencies_of([text])[0]

    def frequencies_of(self, texts: list[str]) -> list[tuple[list[int], float]]:
        """``frequencies`` of each text (one call for a read's candidates: the loop's lookups are made once)."""
        terms, by_stem, cjk, stems, probe = len(self.terms), self.by_stem, self.cjk, self.stems, self.latin_probe
        counted = []
        for text in texts:
            lowered = text.lower()
            _, length, cjk_chars = measure(lowered)
            counts = [0] * terms
            if probe is not None:
                for word in probe.findall(lowered):
                    stemmed = stems.get(word)
                    if stemmed is None:
                        stemmed = stems[word] = stem(word)
                    index = by_stem.get(stemmed)
                    if index is not None:
                        counts[index] += 1
            if cjk_chars:
                for index, term in cjk:
                    counts[index] = lowered.count(term)
            counted.append((counts, length + cjk_chars / CJK_CHARS_PER_WORD))
        return counted


def measure(lowered: str) -> tuple[list[str] | None, int, int]:
    """A lower-cased text's words when it is ASCII (None otherwise: ``LATIN_WORD`` finds them), its count
    of words and its count of Chinese characters. Its length on the word scale is words + characters /
    ``CJK_CHARS_PER_WORD`` (what ``QueryMatcher`` and the retrieval index both count)."""
    if lowered.isascii():
        words = _ASCII_WORD.findall(lowered)
        return words, len(words), 0
    runs = _WORD_OR_CJK_RUN.findall(lowered)
    return None, runs.count(""), sum(map(len, runs))


def stem_probe(term: str) -> str:
    """A substring of every word whose ``stem`` is ``term``.

    ``stem`` only cuts a word's ending, except that -ies becomes -y: the stem is a prefix of the word,
    or all of it but its last letter is.
    """
    return term[:-1] if term.endswith("y") else term


def query_matcher(terms: tuple[QueryTerm, ...]) -> QueryMatcher:
    by_stem = {term.text: index for index, term in enumerate(terms) if not term.cjk}
    cjk = tuple((index, term.text) for index, term in enumerate(terms) if term.cjk)
    probe = None
    if by_stem:
        # Whole words (as LATIN_WORD cuts them) that begin with a probe.
        starts = "|".join(re.escape(stem_probe(text)) for text in by_stem)
        probe = re.compile(rf"(?<![^\W_{CJK_CHARS}])(?:{starts})[^\W_{CJK_CHARS}]*")
    return QueryMatcher(terms=terms, by_stem=by_stem, cjk=cjk, stems={}, latin_probe=probe)
