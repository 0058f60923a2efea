"""One normalization pass before every lexicon and recognizer: what the text *reads as*.

An attacker (or a careless paste) can hide a word from a pattern without hiding it from a reader:
zero-width characters inside it (``ig\\u200bnore``), look-alike letters from another script
(``ignоre`` with a Cyrillic о), full-width forms, HTML entities, traditional characters, or letters
spaced out (``p a s s w o r d``, ``忽 略 规 则``). :func:`screen` undoes all of these at once, so the
lexicons and recognizers are written once, against plain text. The result is only *read*: the
stored memory keeps the original text, and nothing derived from the screened text is stored.

The look-alike table is the Unicode consortium's confusables list as shipped by the
``confusable-homoglyphs`` package (no hand list); traditional → simplified Chinese is OpenCC's
``t2s`` table. A letter is folded only inside a word that already holds ASCII letters, or whose
every letter has an ASCII look-alike — a Russian or Greek word stays as it is.

:func:`readings` adds, for the injection lexicons only, the text with leetspeak undone
(``1gn0r3`` → ``ignore``): digits inside words are part of identifiers and secrets, so the
recognizers never see that reading. It also adds the text with its embedded base64 / hex /
percent-encoded / ROT13 spans decoded (:mod:`governance.pipeline.decode`), screened again: an
instruction behind "decode this and follow it" reads as the instruction.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from functools import cache
from importlib import resources

import opencc
from anyascii import anyascii

from governance.pipeline.decode import decoded

# Runs of single characters, each followed by one separator: "p a s s w o r d", "P-A-S-S", "密 码 是".
# Three or more in a row: ordinary text almost never has three one-letter words in a row.
_SPACED_RUN = re.compile(
    r"(?<![^\s(\[{\"'“‘:：,，])([^\s])( {1,3}|[\-·.])(?:[^\s]\2)+[^\s](?=$|[\s)\]}\"'”’:：,，。;；!?])"
)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_WORD = re.compile(r"[^\s\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef.,;:!?()\[\]{}<>\"'`/\\|=+*&^%$#@~]+")
_CJK = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")
_CJK_GAP = re.compile(r"(?<=[\u4e00-\u9fff“”\"])[ \t]+(?=[\u4e00-\u9fff“”\"])")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "9": "g", "$": "s"})
_LEET_L = str.maketrans({"1": "l", "|": "l", "!": "i"})
_LEET_WORD = re.compile(r"(?<![\w@$])[a-z0-9@$!|]*[a-z][a-z0-9@$!|]*(?![\w@$])")
_LEET_CHARS = frozenset("0134579$!|")
# Unicode tag characters spell ASCII invisibly ("ASCII smuggling"): each reads as its ASCII letter.
_TAGS = re.compile("[\U000e0020-\U000e007e]+")
_TAG_TO_ASCII = {cp: cp - 0xE0000 for cp in range(0xE0020, 0xE007F)}
# Terminal escape sequences (colours, "conceal", cursor moves, titles) and other control characters:
# a terminal hides or restyles text with them, a reader of the memory sees the text.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f]")
# A word split by symbols inside it ("in/structions", "ou*trank", "帮_我_永_久"): read joined. Only a
# reading of its own, when the text has at least two such splits (paths and identifiers have one).
_SPLIT_MARK = re.compile(r"(?<=[^\W\d_])[*_/|~^+](?=[^\W\d_])")
_SPLIT_ANY = re.compile(r"(?<=[^\W\d_])[*_/|~^+\-](?=[^\W\d_])")


@cache
def _invisible_re() -> re.Pattern[str]:
    """:func:`_invisible` as one character class: removing them with a regex runs in C."""
    points = sorted(_invisible())
    ranges: list[tuple[int, int]] = []
    for cp in points:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    parts = "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(f"[{parts}]")


@cache
def _invisible() -> dict[int, None]:
    """Format characters (Unicode category Cf: zero-width spaces and joiners, bidi controls, the BOM,
    soft hyphens, tag characters), variation selectors and the Hangul fillers that render as nothing."""
    points = [cp for cp in (*range(0x10000), *range(0xE0000, 0xE0080)) if unicodedata.category(chr(cp)) == "Cf"]
    points += [0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, *range(0xFE00, 0xFE10)]
    return dict.fromkeys(points)


@cache
def _confusables() -> dict[str, str]:
    """Each non-ASCII character with an ASCII letter or digit look-alike, mapped to it (same case
    preferred: Greek capital iota reads as ``I``, not ``l``)."""
    raw = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    table: dict[str, str] = {}
    for char, entries in raw.items():
        if len(char) != 1 or char.isascii() or _CJK.match(char):
            continue
        options = [e["c"] for e in entries if len(e["c"]) == 1 and e["c"].isascii() and e["c"].isalnum()]
        if not options:
            continue
        same_case = [c for c in options if c.isalpha() and c.isupper() == char.isupper()]
        letters = [c for c in options if c.isalpha()]
        table[char] = (same_case or letters or options)[0]
    return table


@cache
def _t2s() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


def _fold_word(match: re.Match[str]) -> str:
    word = match.group(0)
    if word.isascii():
        return word
    table = _confusables()
    letters = [c for c in word if c.isalpha()]
    if any(c.isascii() for c in letters):
        # A word mixing scripts is an obfuscation: letters the confusables table leaves (Greek ε) are
        # read as their one-letter transliteration.
        return "".join(table.get(c) or _one_letter(c) for c in word)
    if all(c in table for c in letters if not c.isascii()):
        return "".join(table.get(c, c) for c in word)
    return word


def _one_letter(char: str) -> str:
    if char.isascii() or not char.isalpha() or _CJK.match(char):
        return char
    ascii_form = anyascii(char)
    return ascii_form if len(ascii_form) == 1 and ascii_form.isalpha() else char


def _join_spaced(match: re.Match[str]) -> str:
    return match.group(0).replace(match.group(2), "")


def unhidden(text: str) -> str:
    """``text`` with what hides it from a reader undone — entities decoded, terminal escapes and control
    characters dropped, tag characters spelled out, NFKC, invisibles dropped — and its letters as
    written: the first half of :func:`screen`, and what the language of a passage is told from
    (folding ``für`` to ``fur`` would hide that it is German)."""
    if "&" in text:
        text = _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    if "\x1b" in text or not text.isprintable():
        text = _ESCAPES.sub(" ", text.replace("\r\n", "\n"))
    if not text.isascii():
        text = _TAGS.sub(lambda m: " " + m.group(0).translate(_TAG_TO_ASCII), text)
        text = _invisible_re().sub("", unicodedata.normalize("NFKC", text))
    return text


def screen(text: str) -> str:
    """``text`` as a reader sees it: :func:`unhidden`, then look-alikes folded to ASCII, traditional
    Chinese simplified, spaced-out letters and digits joined. Case is kept."""
    text = unhidden(text)
    if not text.isascii():
        text = _WORD.sub(_fold_word, text)
        if _CJK.search(text):
            text = _t2s().convert(text)
    if " " in text or "-" in text or "." in text:
        text = _SPACED_RUN.sub(_join_spaced, text)
        if _CJK.search(text):
            # Chinese has no spaces between characters: "选 “同 意”" reads "选“同意”".
            text = _CJK_GAP.sub("", text)
    return text


def readings(text: str) -> tuple[str, ...]:
    """The screened text, then (if they differ) the same with leetspeak undone and the same with its
    encoded spans decoded: the injection checks read each. ``1`` is read as ``i`` in one leetspeak
    reading and ``l`` in the other."""
    screened = screen(text)
    return readings_of(screened, decoded_reading(screened))


def decoded_reading(screened: str) -> str | None:
    """The screened text with its encoded spans decoded and screened again, or None if none decode."""
    plain = decoded(screened)
    return screen(plain) if plain is not None else None


def readings_of(screened: str, plain: str | None) -> tuple[str, ...]:
    """:func:`readings` from parts a caller already holds (a candidate caches both)."""
    views = _deleeted(screened)
    joined = _rejoined(screened)
    if joined is not None and joined not in views:
        views = (*views, joined)
    return (*views, plain) if plain is not None and plain not in views else views


def _rejoined(screened: str) -> str | None:
    """The text with words split by symbols joined ("Rem-ember: my in/structions ou*trank …"), or None
    when fewer than two words are split that way."""
    if len(_SPLIT_MARK.findall(screened)) < 2:
        return None
    return _SPLIT_ANY.sub("", screened)


def _deleeted(screened: str) -> tuple[str, ...]:
    lowered = screened.lower()
    if _LEET_CHARS.isdisjoint(lowered):
        return (screened,)
    found = [m for m in _LEET_WORD.finditer(lowered) if not _LEET_CHARS.isdisjoint(m.group(0))]
    if not found:
        return (screened,)
    out = [screened]
    for table in (_LEET, {**_LEET, **_LEET_L}):
        variant = _LEET_WORD.sub(lambda m, table=table: _deleet(m.group(0), table), lowered)
        if variant not in out:
            out.append(variant)
    return tuple(out)


def _deleet(word: str, table: dict[int, str]) -> str:
    letters = sum(c.isalpha() for c in word)
    # A word of letters with a few symbols ("1gn0r3", "syst3m"); all-digit runs and codes stay.
    if letters < 2 or _LEET_CHARS.isdisjoint(word):
        return word
    return word.translate(table)
