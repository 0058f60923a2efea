"""jieba's word frequencies as a mapped table: the same segmentation, a few MB shared by the machine.

jieba keeps its dictionary as one dict of every word (349,046) and every prefix of a word, about 75 MB in
each process, and loads it in about a second. Here the words with a count are a marisa trie (its key ids
index an array of their counts) and the total is a number beside them, written once to
``MEMGOV_VAR_DIR/tables`` (:mod:`governance.mapped_files`) and mapped by every process.

:class:`MappedTokenizer` is jieba's own ``Tokenizer`` on that table. Only the building of its graph of
candidate words changes: where jieba walks forward while the text so far is a word or a prefix of one,
the trie lists at once the words the text starts with, the same set. Its cuts are jieba's, word for word
(tests/memories/test_word_table.py compares them over the project's Chinese text).
"""

from __future__ import annotations

import hashlib
import json
import logging
import mmap
import warnings
from array import array
from collections.abc import Iterator, Mapping
from importlib.metadata import version
from pathlib import Path
from typing import Any

import marisa_trie

from governance.mapped_files import table_directory

with warnings.catch_warnings():  # jieba's modules have invalid escapes (compile-time warnings)
    warnings.simplefilter("ignore")
    import jieba

FORMAT = 1
_WORDS, _COUNTS, _META = "words.marisa", "counts.u32", "meta.json"


class WordFrequencies(Mapping[str, int]):
    """Word → count for the words of jieba's dictionary that have one (jieba's prefix entries, counted
    0, are left out: every use of them reads 0 and a missing word alike)."""

    def __init__(self, words: marisa_trie.Trie, counts: memoryview, total: int, longest: int) -> None:
        self._words = words
        self._counts = counts
        self.total = total
        self._longest = longest  # characters in the longest word: no word starting here reaches further

    def __getitem__(self, word: str) -> int:
        return self._counts[self._words[word]]

    def get(self, word: str, default: Any = None) -> Any:
        key = self._words.get(word)
        return default if key is None else self._counts[key]

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self._words

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words.keys())

    def ends_of_words_at(self, sentence: str, start: int) -> list[int]:
        """The index of the last character of each word ``sentence[start:]`` begins with, shortest first."""
        return [
            start + len(word) - 1
            for word, _ in self._words.iter_prefixes_with_ids(sentence[start : start + self._longest])
        ]


class MappedTokenizer(jieba.Tokenizer):
    """jieba's tokenizer over :class:`WordFrequencies` (its default dictionary, no user words)."""

    def __init__(self, frequencies: WordFrequencies) -> None:
        super().__init__()
        self.FREQ = frequencies
        self.total = frequencies.total
        self.initialized = True

    def get_DAG(self, sentence: str) -> dict[int, list[int]]:  # jieba's name
        return {k: self.FREQ.ends_of_words_at(sentence, k) or [k] for k in range(len(sentence))}

    def add_word(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("the mapped dictionary is read-only")


def _digest() -> str:
    return hashlib.sha256(f"{version('jieba')}|{version('marisa-trie')}|{FORMAT}".encode()).hexdigest()[:16]


def _build(directory: Path) -> None:
    stock = jieba.Tokenizer()
    frequencies, total = stock.gen_pfdict(stock.get_dict_file())
    words = marisa_trie.Trie(word for word, count in frequencies.items() if count)
    counts = array("I", bytes(4 * len(words)))
    for word, key in words.iteritems():
        counts[key] = frequencies[word]
    words.save(str(directory / _WORDS))
    (directory / _COUNTS).write_bytes(counts.tobytes())
    (directory / _META).write_text(
        json.dumps({"total": total, "words": len(words), "longest": max(map(len, words.keys()))})
    )


def load() -> WordFrequencies:
    """The default dictionary's frequencies, mapped (built on the machine's first use)."""
    directory = table_directory("jieba", _digest(), _build)
    meta = json.loads((directory / _META).read_text())
    words = marisa_trie.Trie()
    words.mmap(str(directory / _WORDS))
    with (directory / _COUNTS).open("rb") as file:
        counts = memoryview(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)).cast("I")
    if len(words) != meta["words"] or len(counts) != meta["words"]:
        raise RuntimeError(f"the word table in {directory} is damaged: delete the folder and start again")
    return WordFrequencies(words, counts, meta["total"], meta["longest"])


def tokenizer() -> MappedTokenizer:
    jieba.setLogLevel(logging.WARNING)
    return MappedTokenizer(load())
