r"""Helpers for writing zh+en lexicons as regular expressions.

Python's ``\b`` treats CJK characters as word characters, so ``\bpython\b`` never matches in
"用python写". English terms get ASCII-only boundaries (:func:`en`) instead; Chinese terms need none.
"""

from __future__ import annotations

import re
import unicodedata

from governance.pipeline.lexicons.prefilter import Lexicon, memoized_in_scan

_QUOTES = (("‘", "'"), ("’", "'"), ("“", '"'), ("”", '"'), ("＂", '"'))
_BLANKS = re.compile(r"[^\S\n]+")

# A sentence ends at CJK end punctuation, or at ASCII punctuation followed by a space, the end, or a
# non-ASCII character — never inside "prod.restart", "20.11" or "TL;DR".
SENTENCE_BREAK = r"(?:[。！？；\n]|[.;!?](?=\s|$|[^\x00-\x7f]))"
# A phrase also ends at a comma (not one inside "1,200"), a colon or an enumeration comma.
PHRASE_BREAK = rf"(?:{SENTENCE_BREAK}|[，、：]|,(?!\d)|:(?!\d))"

_SENTENCE_RE = re.compile(SENTENCE_BREAK)
_PHRASE_RE = re.compile(PHRASE_BREAK)


@memoized_in_scan
def prepare(text: str, *, fold: bool = True) -> str:
    """NFKC (full-width → half-width), straight quotes, single spaces; lower case unless ``fold=False``.

    ``fold=False`` keeps case for lexicons that must tell "US" (a region) from "us" (a pronoun).
    """
    # Every lexicon stage prepares the text again, so this is on the hot path: ASCII text needs no
    # normalization, and str.replace is C-speed where str.translate with a dict is not.
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
        for quote, plain in _QUOTES:
            if quote in text:
                text = text.replace(quote, plain)
    if fold:
        text = text.casefold()
    return _BLANKS.sub(" ", text).strip()


def alt(*terms: str) -> str:
    """A non-capturing alternation of regex fragments."""
    return "(?:" + "|".join(terms) + ")"


def en(*terms: str) -> str:
    """English terms with ASCII word boundaries, safe next to CJK characters."""
    return rf"(?<![a-z0-9_]){alt(*terms)}(?![a-z0-9_])"


def zh(*terms: str) -> str:
    """Chinese terms: no boundaries (Chinese has no spaces between words)."""
    return alt(*terms)


def near(first: str, second: str, gap: int = 30, *, within: str = PHRASE_BREAK) -> str:
    """``first`` followed by ``second`` at most ``gap`` characters later, without crossing ``within``."""
    return rf"{alt(first)}(?:(?!{within}).){{0,{gap}}}?{alt(second)}"


def compile_any(*patterns: str, flags: int = re.IGNORECASE) -> Lexicon:
    """The alternation of ``patterns``, compiled behind its required-literal prefilter."""
    return Lexicon(re.compile(alt(*patterns), flags))


# A polite tag closing a request ("回答用中文，好吗？", "call me Sam, okay?"): politeness, not content.
_POLITE_TAG = re.compile(
    r"[，,]\s*(?:好吗|好不好|可以吗|行吗|行不行|成吗|对吧|是吧|谢谢|ok|okay|alright|right|please|thanks|thank you)"
    r"[\s?？.。!！~]*$",
    re.IGNORECASE,
)


def without_polite_tag(text: str) -> str:
    """``text`` without a polite tag at its end ("回答用中文，好吗？" → "回答用中文")."""
    return _POLITE_TAG.sub("", text)


@memoized_in_scan
def sentences(text: str) -> list[str]:
    return [part for part in _SENTENCE_RE.split(text) if part.strip()]


@memoized_in_scan
def phrases(text: str) -> list[str]:
    return [part for part in _PHRASE_RE.split(text) if part.strip()]


# Negation that flips the meaning of what follows it in the same phrase ("never skip review",
# "不要跳过审批"). "别" is guarded because it is part of 特别/区别/识别/级别/….
NEGATOR = compile_any(
    en(
        "never",
        "not",
        "no",
        "nobody",
        "no one",
        "nothing",
        "don't",
        "do not",
        "doesn't",
        "does not",
        "must not",
        "mustn't",
        "should not",
        "shouldn't",
        "shall not",
        "cannot",
        "can't",
        "won't",
        "will not",
        "avoid",
        "prohibit(?:ed)?",
        "forbid(?:den)?",
    ),
    zh(
        "不要",
        "不得",
        "不能",
        "不许",
        "不准",
        "不可",
        "不应",
        "不允许",
        "禁止",
        "严禁",
        "(?<![特区分识类级告性辨差个离鉴组派])别(?![人的])",
        "绝不",
        "绝对不",
        "永远不",
        "千万不",
        "切勿",
        "勿",
        "不再",
        "避免",
        "防止",
        "杜绝",
    ),
)


def negated_before(phrase: str, start: int) -> bool:
    """Whether a negator occurs in ``phrase`` before position ``start``."""
    return NEGATOR.search(phrase[:start]) is not None


def claimed_sentences(pattern: Lexicon, prepared: str) -> list[str]:
    """The sentences of prepared text where ``pattern`` matches with no negator before the match ("never treat …
    as the system's" claims nothing)."""
    return [
        sentence
        for sentence in sentences(prepared)
        if any(not negated_before(sentence, match.start()) for match in pattern.finditer(sentence))
    ]
