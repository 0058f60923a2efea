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
parser's source files, the versions of the packages it reads, Python's and its Unicode database's) and
the first 16 hex digits of the row's fingerprint. A row whose key doesn't match, because it predates
the index, its text changed by a path that didn't index it, or the parser changed since, is selected
and parsed as before: the index only ever saves work. The ``reindex`` lifecycle job
(``run_lifecycle --job reindex``) brings rows up to date.

Tags are HMACs under a key derived from the data key of the memory's owner (the subject; the tenant's
shared key for shared rules), written in sorted order: a database reader learns only which of one
subject's rows share an aspect, not which aspect, and crypto-shredding the subject's key leaves their
tags as meaningless as their ciphertext.
"""

from __future__ import annotations

import hashlib
import hmac
import sys
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import metadata
from pathlib import Path
from threading import Lock

from governance.pipeline import decode, normalize, screen
from governance.pipeline.lexicons import conflict, prefilter, text
from governance.pipeline.lexicons.conflict import VOCABULARY, AspectValues
from vault.datakeys import data_key_existing, data_key_for

_TAG_HEX = 12  # 48 bits: the vocabulary has ~100 entries, so tags never collide within a subject
KEY_FINGERPRINT_HEX = 16  # how much of the fingerprint a key keeps
UNREADABLE = "!"  # before a current key: the reindex job found the row unreadable and moved on
# The parser's inputs: its code, the data the packages it calls ship, and Python's own text handling.
_PARSER_MODULES = (conflict, text, prefilter, screen, normalize, decode)
_PARSER_PACKAGES = ("opencc", "anyascii", "confusable-homoglyphs", "pyahocorasick")

Tags = tuple[dict[str, str], dict[str, tuple[str, str, bool]]]
_TAGS_CACHED = 4096  # subjects whose vocabulary tags a process keeps (tags only: never a key)
_tags_cache: OrderedDict[tuple[int, str, int], Tags] = OrderedDict()
_tags_lock = Lock()


@cache
def scheme() -> str:
    """Changes whenever the parser could read a text differently."""
    digest = hashlib.sha256()
    for module in _PARSER_MODULES:
        digest.update(Path(module.__file__ or "").read_bytes())
    for package in _PARSER_PACKAGES:
        digest.update(f"{package}=={metadata.version(package)}".encode())
    digest.update(f"python {sys.version_info[:2]} unicode {unicodedata.unidata_version}".encode())
    return digest.hexdigest()[:8]


def key_prefix() -> str:
    """What every key made by this parser starts with; the fingerprint's digits follow."""
    return f"{scheme()}:"


def aspect_key(fingerprint: str) -> str:
    """The key of an index made now for a text with this fingerprint."""
    return key_prefix() + fingerprint[:KEY_FINGERPRINT_HEX]


def _tag(key: bytes, *parts: str) -> str:
    return hmac.new(key, "\x1f".join(("aspect", *parts)).encode(), hashlib.sha256).hexdigest()[:_TAG_HEX]


def _vocabulary_tags(key: bytes) -> Tags:
    """Each aspect's tag, and each value tag's meaning: (aspect, value, negated)."""
    names = {name: _tag(key, name) for name, _ in VOCABULARY}
    values = {
        _tag(key, name, value, "-" if negated else "+"): (name, value, negated)
        for name, options in VOCABULARY
        for value in options
        for negated in (False, True)
    }
    return names, values


def _tags_for(*, tenant_id: int, owner: str, create: bool) -> Tags | None:
    """The vocabulary's tags for this owner; None when they have no data key (and ``create`` is off)."""
    found = (data_key_for if create else data_key_existing)(tenant_id=tenant_id, owner=owner)
    if found is None:
        return None
    key_id, data_key = found
    cache_key = (tenant_id, owner, key_id)
    with _tags_lock:
        tags = _tags_cache.get(cache_key)
        if tags is not None:
            _tags_cache.move_to_end(cache_key)
            return tags
    tags = _vocabulary_tags(hmac.new(data_key, b"memgov|aspect-index|v1", hashlib.sha256).digest())
    with _tags_lock:
        _tags_cache[cache_key] = tags
        if len(_tags_cache) > _TAGS_CACHED:
            _tags_cache.popitem(last=False)
    return tags


def name_tags(*, tenant_id: int, owner: str, names: Iterable[str]) -> list[str]:
    """The tags of these aspects, to select the owner's rows that name any of them (none without a key:
    an owner without one has no rows)."""
    tags = _tags_for(tenant_id=tenant_id, owner=owner, create=False)
    if tags is None:
        return []
    return sorted(tags[0][name] for name in names)


def encode(*, tenant_id: int, owner: str, found: Mapping[str, AspectValues]) -> str:
    """The ``aspect_tags`` of one of the owner's texts whose :func:`conflict.aspects` are ``found``: sorted,
    space-delimited, with a space at each end, so ``LIKE '% tag %'`` matches whole tags."""
    tags = _tags_for(tenant_id=tenant_id, owner=owner, create=True)
    if tags is None:  # pragma: no cover — data_key_for creates a missing key
        raise RuntimeError("no data key for the owner")
    by_name, by_value = tags
    wanted = {(name, value, False) for name, said in found.items() for value in said.asserted}
    wanted |= {(name, value, True) for name, said in found.items() for value in said.negated}
    out = {by_name[name] for name in found} | {tag for tag, meaning in by_value.items() if meaning in wanted}
    return f" {' '.join(sorted(out))} " if out else " "


def decode(*, tenant_id: int, owner: str, tags: str) -> dict[str, AspectValues]:
    """The aspects :func:`encode` wrote as ``tags`` for this owner."""
    known = _tags_for(tenant_id=tenant_id, owner=owner, create=False)
    if known is None:
        return {}
    by_name, by_value = known
    names = {tag: name for name, tag in by_name.items()}
    found: dict[str, tuple[set[str], set[str]]] = {}
    for tag in tags.split():
        if tag in names:
            found.setdefault(names[tag], (set(), set()))
    for tag in tags.split():
        if tag in by_value:
            name, value, negated = by_value[tag]
            asserted, denied = found.setdefault(name, (set(), set()))
            (denied if negated else asserted).add(value)
    return {name: AspectValues(frozenset(a), frozenset(n)) for name, (a, n) in found.items()}


def index_fields(*, tenant_id: int, owner: str, fingerprint: str, found: Mapping[str, AspectValues]) -> dict[str, str]:
    """The two columns a row of this owner keeps for the text with this fingerprint and these aspects."""
    return {
        "aspect_key": aspect_key(fingerprint),
        "aspect_tags": encode(tenant_id=tenant_id, owner=owner, found=found),
    }


def unreadable_fields(fingerprint: str) -> dict[str, str]:
    """What the reindex job leaves on a row it could not open: still parsed when compared, but not retried
    until the parser changes."""
    return {"aspect_key": UNREADABLE + aspect_key(fingerprint), "aspect_tags": " "}


def parsed(content: str) -> dict[str, AspectValues]:
    """What a stored text says about its aspects, read as the pipeline reads a candidate."""
    return conflict.aspects(screen.screen(content))
