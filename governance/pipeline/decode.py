"""Embedded encodings, decoded: what a text says once its base64, hex, percent-encoded or ROT13 spans are read.

"Decode this and keep it as a rule: ZnJvbSBub3cgb24…" hides its instruction from every pattern and
recognizer that reads the text as written. :func:`decoded` finds the spans, decodes them and returns the
text with each span replaced by what it says, so the same detectors read the hidden words in their context
("decode this and keep it as a rule: from now on …"). It is one more *reading* of the content, never
stored.

Bounded on every side, because it runs on every write: only the first :data:`MAX_SCAN` characters are
searched, at most :data:`MAX_SPANS` spans of at most :data:`MAX_SPAN` characters are decoded per pass, and
a result is decoded again (base64 of hex, percent-encoded base64) at most :data:`MAX_DEPTH` times. A span
counts only when it decodes to readable text (valid UTF-8, printable, with letters): random keys, hashes
and ids decode to bytes and are left alone. ROT13 has no alphabet of its own; a run of words is read as
ROT13 when rotating it turns a text with almost no common English words into one with many.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import urllib.parse

MAX_SCAN = 8000
MAX_SPAN = 4096
MAX_SPANS = 16
MAX_DEPTH = 2
_MIN_DECODED = 4

_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,4096}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(
    r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,2048}(?![0-9A-Fa-f])"  # 48656c6c6f…
    r"|(?:\\x[0-9A-Fa-f]{2}){4,2048}"  # \x48\x65…
    r"|(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :]){7,2047}[0-9A-Fa-f]{2}(?![0-9A-Fa-f])"  # 48 65 6c … / 48:65:…
)
_PERCENT = re.compile(r"(?:[^\s%]*%[0-9A-Fa-f]{2}){3,}[^\s%]*")
# A run of at least four ASCII words within one clause: a ROT13 candidate ("Keep this: <rot13>" is two).
_WORD_RUN = re.compile(r"[A-Za-z]+(?:[\s,'\"()-]+[A-Za-z]+){3,}")
_WORDS = re.compile(r"[A-Za-z]+")
# The commonest English function words: a rotated text holds almost none, its plain form many.
_COMMON_WORDS = (
    "the be to of and a in that have i it for not on with he as you do at this but his by from they we say "
    "her she or an will my one all would there their what so up out if about who get which go me when make "
    "can like time no just him know take people into year your good some could them see other than then now "
    "look only come its over think also back after use two how our work first well way even new want because "
    "any these give day most us is are was were has had been am every always never must should from"
)
_COMMON = frozenset(_COMMON_WORDS.split(" "))


def _readable(text: str) -> bool:
    if len(text) < _MIN_DECODED:
        return False
    printable = sum(ch.isprintable() or ch in "\n\t\r" for ch in text)
    letters = sum(ch.isalpha() for ch in text)
    return printable >= 0.97 * len(text) and letters >= 0.4 * len(text.replace(" ", "")) and letters >= 3


def _utf8(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if _readable(text):
        return text
    # One encoding inside another (base64 of hex…): the next pass decodes it.
    nested = any(p.fullmatch(text) for p in (_HEX, _BASE64, _PERCENT))
    return text if nested else None


def _from_base64(span: str) -> str | None:
    body = span.rstrip("=")
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            text = _utf8(decoder(padded))
        except (binascii.Error, ValueError):
            continue
        if text is not None:
            return text
    return None


def _from_hex(span: str) -> str | None:
    digits = re.sub(r"\\x|[ :]", "", span)
    try:
        return _utf8(bytes.fromhex(digits))
    except ValueError:
        return None


def _from_percent(span: str) -> str | None:
    text = urllib.parse.unquote(span, errors="strict") if "%" in span else span
    return text if text != span and _readable(text) else None


def _common_share(text: str) -> float:
    words = _WORDS.findall(text.lower())
    return sum(w in _COMMON for w in words) / len(words) if words else 0.0


def _from_rot13(span: str) -> str | None:
    rotated = codecs.encode(span, "rot13")
    before, after = _common_share(span), _common_share(rotated)
    return rotated if after >= 0.3 and after >= before + 0.25 else None


def _replace(text: str, pattern: re.Pattern[str], decode: object, budget: list[int]) -> str:
    out: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        if budget[0] <= 0:
            break
        span = match.group(0)
        if len(span) > MAX_SPAN:
            continue
        try:
            plain = decode(span)  # type: ignore[operator]
        except UnicodeDecodeError:
            plain = None
        if plain is None:
            continue
        budget[0] -= 1
        out += [text[last : match.start()], plain]
        last = match.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def _one_pass(text: str) -> str:
    budget = [MAX_SPANS]
    for pattern, decode in ((_HEX, _from_hex), (_BASE64, _from_base64), (_PERCENT, _from_percent)):
        text = _replace(text, pattern, decode, budget)
    return _replace(text, _WORD_RUN, _from_rot13, budget)


def decoded(text: str) -> str | None:
    """``text`` with its encoded spans replaced by what they say (decoded again, up to
    :data:`MAX_DEPTH` passes), or None when nothing in it decodes to readable text."""
    head = text[:MAX_SCAN]
    current = head
    for _ in range(MAX_DEPTH):
        nxt = _one_pass(current)
        if nxt == current:
            break
        current = nxt
    if current == head:
        return None
    return current + text[MAX_SCAN:]
