"""Offline token estimates for a prompt budget, for Chinese and English text, with no tokenizer download.

The estimate leans high on purpose: an overestimate injects a little less, an underestimate overflows
the model's context. The rules, set against BPE tokenizers of the cl100k/o200k kind:

- CJK characters (ideographs, kana) count 1.25 tokens each, rounded up over the text (cl100k spends
  about 1–1.5 per character on Chinese, o200k less);
- a word in another script counts 1 token up to 6 characters and one more per further 6
  (common English words are single tokens; long or rare ones split);
- digits count one token per 3 (BPE vocabularies group digits in threes);
- every other visible character (punctuation, symbols, fullwidth punctuation) counts 1;
- whitespace is free (BPE merges a leading space into the next word).

Pieces never span whitespace, so the estimate of lines joined by newlines is at most the sum of the
lines' estimates: pricing lines one by one never under-counts the whole. Exactly, it is ``total_tokens``
of the lines' ``token_count`` (only the CJK rounding is over the whole text), which lets the read path
price a rendered context from the lines it already priced instead of scanning it again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import NamedTuple

from memories.read.segment import CJK_CHARS

CJK_TOKENS_PER_CHAR = 1.25
WORD_CHARS_PER_TOKEN = 6
DIGITS_PER_TOKEN = 3

_CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
# Digit runs and words cut into the pieces a token is counted for: a run's pieces are its tokens.
_DIGIT_PIECE = re.compile(rf"\d{{1,{DIGITS_PER_TOKEN}}}")
_WORD_PIECE = re.compile(rf"[^\W\d_{CJK_CHARS}]{{1,{WORD_CHARS_PER_TOKEN}}}")
# The same two on ASCII text, where plain ranges scan several times faster than Unicode categories.
_ASCII_DIGIT_PIECE = re.compile(rf"[0-9]{{1,{DIGITS_PER_TOKEN}}}")
_ASCII_WORD_PIECE = re.compile(rf"[A-Za-z]{{1,{WORD_CHARS_PER_TOKEN}}}")


class TokenCount(NamedTuple):
    """A text's estimate in two parts, so that texts joined by whitespace can be priced from their parts."""

    cjk: int  # CJK characters: 1.25 tokens each, rounded up once over the whole text
    pieces: int  # every other token: digit groups, word pieces, other visible characters


def token_count(text: str) -> TokenCount:
    """The parts of ``estimate_tokens(text)``.

    Every character is whitespace, CJK, in a digit run, in a word, or "other" (punctuation, symbols,
    the underscore). Digit runs and words are matched in token-sized pieces, and "other" is what is
    left of the visible characters: a few passes in C, as the read path prices every line it renders.
    """
    if text.isascii():
        cjk = 0
        digits = _ASCII_DIGIT_PIECE.findall(text)
        words = _ASCII_WORD_PIECE.findall(text)
    else:
        cjk = sum(map(len, _CJK_RUN.findall(text)))
        digits = _DIGIT_PIECE.findall(text)
        words = _WORD_PIECE.findall(text)
    visible = sum(map(len, text.split()))  # str.split() and \s agree on what whitespace is
    other = visible - cjk - sum(map(len, digits)) - sum(map(len, words))
    return TokenCount(cjk, len(digits) + len(words) + other)


def total_tokens(counts: Iterable[TokenCount]) -> int:
    """``estimate_tokens`` of the texts these counts are of, joined by whitespace (no piece spans it)."""
    cjk = pieces = 0
    for count in counts:
        cjk += count.cjk
        pieces += count.pieces
    return math.ceil(cjk * CJK_TOKENS_PER_CHAR) + pieces


def estimate_tokens(text: str) -> int:
    """An upper-leaning estimate of how many tokens ``text`` takes in a model's prompt."""
    cjk, pieces = token_count(text)
    return math.ceil(cjk * CJK_TOKENS_PER_CHAR) + pieces
