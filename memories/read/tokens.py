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
lines' estimates: pricing lines one by one never under-counts the whole.
"""

from __future__ import annotations

import math
import re

from memories.read.segment import CJK_CHARS

CJK_TOKENS_PER_CHAR = 1.25
WORD_CHARS_PER_TOKEN = 6
DIGITS_PER_TOKEN = 3

_CJK = re.compile(f"[{CJK_CHARS}]")
_DIGITS = re.compile(r"\d+")
_WORD = re.compile(rf"[^\W\d_{CJK_CHARS}]+")
_OTHER = re.compile(rf"[^\w\s{CJK_CHARS}]|_")


def estimate_tokens(text: str) -> int:
    """An upper-leaning estimate of how many tokens ``text`` takes in a model's prompt."""
    cjk = len(_CJK.findall(text))
    digits = sum(-(-len(run) // DIGITS_PER_TOKEN) for run in _DIGITS.findall(text))
    words = sum(-(-len(word) // WORD_CHARS_PER_TOKEN) for word in _WORD.findall(text))
    return math.ceil(cjk * CJK_TOKENS_PER_CHAR) + digits + words + len(_OTHER.findall(text))
