"""The comparison index: what rule 12 needs of a stored memory, kept with its row as keyed tags.

A write compares its candidate with the memories of its scope that it could duplicate (the same
fingerprint) or contradict (a shared aspect: ``governance/pipeline/lexicons/conflict.py``). Each row
carries ``aspect_tags``: a keyed tag for every aspect its text names and for every (aspect, value,
asserted or negated) it says. So the write's one SQL read selects only the rows that share the
candidate's fingerprint or one of its aspects, and reads their aspects back from the tags, without
opening or parsing their text. A memory that shares neither can't be a duplicate or a contradiction,
so leaving it out changes no decision (tests/memories/test_aspect_index.py runs every evaluation set
with and without the index).

``aspect_key`` says which text and which parser the tags describe: the scheme (a digest of the
parser's source files and the versions of the packages it reads) and the first 16 hex digits of the
row's fingerprint. A row whose key doesn't match, because it predates the index, its text changed by a
path that didn't index it, or the parser changed since, is selected and parsed as before: the index
only ever saves work. ``manage.py index_aspects`` brings every row up to date.

Tags are HMACs under the tenant's fingerprint key, as fingerprints are: without the key, a database
reader learns only which rows share an aspect, not which. Tags hang off their row and go with it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import metadata
from pathlib import Path

from governance.pipeline import normalize, screen
from governance.pipeline.lexicons import conflict, prefilter, text
from governance.pipeline.lexicons.conflict import VOCABULARY, AspectValues
from vault.datakeys import fingerprint_key

_TAG_HEX = 12  # 48 bits: the vocabulary has ~100 entries, so tags never collide within a tenant
KEY_FINGERPRINT_HEX = 16  # how much of the fingerprint a key keeps
# The parser's inputs: its code and the data the packages it calls ship.
_PARSER_MODULES = (conflict, text, prefilter, screen, normalize)
_PARSER_PACKAGES = ("opencc", "anyascii", "confusable-homoglyphs")


@cache
def scheme() -> str:
    """Changes whenever the parser could read a text differently."""
    digest = hashlib.sha256()
    for module in _PARSER_MODULES:
        digest.update(Path(module.__file__ or "").read_bytes())
    for package in _PARSER_PACKAGES:
        digest.update(f"{package}=={metadata.version(package)}".encode())
    return digest.hexdigest()[:8]


def key_prefix() -> str:
    """What every key made by this parser starts with; the fingerprint's digits follow."""
    return f"{scheme()}:"


def aspect_key(fingerprint: str) -> str:
    """The key of an index made now for a text with this fingerprint."""
    return key_prefix() + fingerprint[:KEY_FINGERPRINT_HEX]


def _tag(key: bytes, *parts: str) -> str:
    return hmac.new(key, "\x1f".join(("aspect", *parts)).encode(), hashlib.sha256).hexdigest()[:_TAG_HEX]


@cache
def _vocabulary_tags(key: bytes) -> tuple[dict[str, str], dict[str, tuple[str, str, bool]]]:
    """Each aspect's tag, and each value tag's meaning: (aspect, value, negated)."""
    names = {name: _tag(key, name) for name, _ in VOCABULARY}
    values = {
        _tag(key, name, value, "-" if negated else "+"): (name, value, negated)
        for name, options in VOCABULARY
        for value in options
        for negated in (False, True)
    }
    return names, values


def _tags_for(tenant_id: int) -> tuple[dict[str, str], dict[str, tuple[str, str, bool]]]:
    return _vocabulary_tags(fingerprint_key(tenant_id=tenant_id))


def name_tags(*, tenant_id: int, names: Iterable[str]) -> list[str]:
    """The tags of these aspects, to select the rows that name any of them."""
    by_name, _ = _tags_for(tenant_id)
    return sorted(by_name[name] for name in names)


def encode(*, tenant_id: int, found: Mapping[str, AspectValues]) -> str:
    """The ``aspect_tags`` of a text whose :func:`conflict.aspects` are ``found``: space-delimited, with
    a space at each end, so ``LIKE '% tag %'`` matches whole tags."""
    key = fingerprint_key(tenant_id=tenant_id)
    by_name, _ = _vocabulary_tags(key)
    tags = []
    for name, said in sorted(found.items()):
        tags.append(by_name[name])
        tags += sorted(_tag(key, name, value, "+") for value in said.asserted)
        tags += sorted(_tag(key, name, value, "-") for value in said.negated)
    return f" {' '.join(tags)} " if tags else " "


def decode(*, tenant_id: int, tags: str) -> dict[str, AspectValues]:
    """The aspects :func:`encode` wrote as ``tags``."""
    by_name, by_value = _tags_for(tenant_id)
    names = {tag: name for name, tag in by_name.items()}
    found: dict[str, tuple[set[str], set[str]]] = {}
    for tag in tags.split():
        if tag in names:
            found.setdefault(names[tag], (set(), set()))
        elif tag in by_value:
            name, value, negated = by_value[tag]
            asserted, denied = found.setdefault(name, (set(), set()))
            (denied if negated else asserted).add(value)
    return {name: AspectValues(frozenset(a), frozenset(n)) for name, (a, n) in found.items()}


def index_fields(*, tenant_id: int, fingerprint: str, found: Mapping[str, AspectValues]) -> dict[str, str]:
    """The two columns a memory row keeps for the text with this fingerprint and these aspects."""
    return {"aspect_key": aspect_key(fingerprint), "aspect_tags": encode(tenant_id=tenant_id, found=found)}


def parsed(content: str) -> dict[str, AspectValues]:
    """What a stored text says about its aspects, read as the pipeline reads a candidate."""
    return conflict.aspects(screen.screen(content))
