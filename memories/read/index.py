"""The retrieval index as a read opens it: one sealed value per owner, unpacked without copying.

Layout of the packed value (little-endian), every array a slice of the one buffer:

    b"MGRI1" | header length (4) | header (JSON: model, dim, n, keys, postings)
    ids (n × 36 ASCII) | stamps (n × 24) | lengths (n × f8) | flags (n × u1) | vectors (n × dim × f2)
    keys (V × u8, sorted) | offsets ((V + 1) × u4) | docs (P × u4) | counts (P × u4)

A memory's *stamp* is the nonce of its sealed content and of its sealed vector (zeros without one):
every seal draws a new nonce, so an entry whose stamp differs from the row's was made from other
content or another vector, and is not used (``IndexView.position``).
"""

from __future__ import annotations

import json
import logging
import struct
from collections.abc import Sequence
from functools import cached_property
from typing import NamedTuple

import numpy as np
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.db import connection

from memories.models import RetrievalIndex
from memories.read.features import TextFeatures
from vault import DecryptionError
from vault.datakeys import data_key_by_id
from vault.envelope import NONCE_SIZE, associated_data, key_id_of, open_sealed_bytes_with

logger = logging.getLogger("memgov.read")
MAGIC = b"MGRI1"
NO_VECTOR = bytes(NONCE_SIZE)  # the vector half of the stamp of a memory without one
STAMP_SIZE = 2 * NONCE_SIZE
_ID_SIZE = 36
_HAS_VECTOR, _MENTION_EXACT = 1, 2
_HEX_COLUMNS = [i for i in range(_ID_SIZE) if i not in (8, 13, 18, 23)]  # the id's digits, without its dashes
INDEX_MODEL = RetrievalIndex._meta.label_lower


class IndexEntry(NamedTuple):
    memory_id: str  # canonical UUID text
    stamp: bytes  # STAMP_SIZE bytes
    features: TextFeatures
    vector: np.ndarray | None  # float16 as stored, or None


def index_aad(*, tenant_id: int, owner: str) -> bytes:
    return associated_data(model=INDEX_MODEL, tenant_id=tenant_id, record_id=f"owner:{owner}", field="sealed")


def pack_index(entries: Sequence[IndexEntry], *, model: str, dim: int) -> bytes:
    n = len(entries)
    vectors = np.zeros((n, dim), dtype="<f2")
    flags = np.zeros(n, dtype=np.uint8)
    keys_parts, docs_parts, counts_parts = [], [], []
    for doc, entry in enumerate(entries):
        if entry.vector is not None and dim and entry.vector.shape == (dim,):
            vectors[doc] = entry.vector
            flags[doc] |= _HAS_VECTOR
        if entry.features.mention_exact:
            flags[doc] |= _MENTION_EXACT
        counted = entry.features.counts
        keys_parts.append(np.fromiter(counted.keys(), dtype=np.uint64, count=len(counted)))
        counts_parts.append(np.fromiter(counted.values(), dtype=np.uint32, count=len(counted)))
        docs_parts.append(np.full(len(counted), doc, dtype=np.uint32))
    keys = np.concatenate(keys_parts) if keys_parts else np.zeros(0, np.uint64)
    docs = np.concatenate(docs_parts) if docs_parts else np.zeros(0, np.uint32)
    counts = np.concatenate(counts_parts) if counts_parts else np.zeros(0, np.uint32)
    order = np.lexsort((docs, keys))
    keys, docs, counts = keys[order], docs[order], counts[order]
    unique, starts = np.unique(keys, return_index=True)
    offsets = np.append(starts, len(keys)).astype("<u4")
    header = json.dumps({"model": model, "dim": dim, "n": n, "keys": len(unique), "postings": len(keys)}).encode()
    ids = "".join(entry.memory_id for entry in entries).encode("ascii")
    if len(ids) != n * _ID_SIZE or any(len(entry.stamp) != STAMP_SIZE for entry in entries):
        raise ValueError("index entries need canonical ids and full stamps")
    return b"".join(
        [
            MAGIC,
            struct.pack("<I", len(header)),
            header,
            ids,
            b"".join(entry.stamp for entry in entries),
            np.array([entry.features.length for entry in entries], dtype="<f8").tobytes(),
            flags.tobytes(),
            vectors.tobytes(),
            unique.astype("<u8").tobytes(),
            offsets.tobytes(),
            docs.astype("<u4").tobytes(),
            counts.astype("<u4").tobytes(),
        ]
    )


class IndexView:
    """An unpacked index: ``position`` finds a memory's entry, ``postings`` a key's entries and counts."""

    def __init__(self, packed: bytes) -> None:
        if not packed.startswith(MAGIC):
            raise ValueError("not a retrieval index")
        (size,) = struct.unpack_from("<I", packed, len(MAGIC))
        at = len(MAGIC) + 4
        header = json.loads(packed[at : at + size])
        at += size
        self.model: str = header["model"]
        n, dim, keys, postings = header["n"], header["dim"], header["keys"], header["postings"]
        self.size = n
        self.dim = dim
        buffer = memoryview(packed)

        def take(count: int, dtype: str) -> np.ndarray:
            nonlocal at
            array = np.frombuffer(buffer, dtype=dtype, count=count, offset=at)
            at += array.nbytes
            return array

        self._ids = take(n * _ID_SIZE, "u1").reshape(n, _ID_SIZE)
        self._stamp_rows = take(n * STAMP_SIZE, "u1").reshape(n, STAMP_SIZE)
        self._stamps = self._stamp_rows.tobytes()
        self.lengths = take(n, "<f8")
        self.flag_array = take(n, "u1")
        self.flags = self.flag_array.tobytes()  # read one at a time: plain ints are faster than numpy's
        self.vectors = take(n * dim, "<f2").reshape(n, dim)
        self.keys = take(keys, "<u8")
        self.offsets = take(keys + 1, "<u4")
        self.docs = take(postings, "<u4")
        self.counts = take(postings, "<u4")

    @cached_property
    def _position(self) -> dict[str, int]:
        ids = self._ids.tobytes().decode("ascii")
        return {ids[i * _ID_SIZE : (i + 1) * _ID_SIZE]: i for i in range(self.size)}

    @cached_property
    def _by_hex(self) -> tuple[np.ndarray, np.ndarray]:
        """The entries' ids as 32 hex digits (``S32``), sorted, and the entry of each."""
        hex_ids = np.ascontiguousarray(self._ids[:, _HEX_COLUMNS]).view("S32").ravel()
        order = np.argsort(hex_ids, kind="stable")
        return hex_ids[order], order

    def entries_of(self, hex_ids: np.ndarray, stamps: np.ndarray) -> np.ndarray:
        """Each memory's entry (-1 for none) when it was made from the content and vector the row holds now:
        ``hex_ids`` their ids (``S32``), ``stamps`` their stamps (n × ``STAMP_SIZE`` bytes). A row with a
        vector whose entry kept none has no entry either (``_entry_of`` did the same, one row at a time)."""
        count = len(hex_ids)
        if not count or not self.size:
            return np.full(count, -1, dtype=np.int64)
        known, order = self._by_hex
        at = np.minimum(np.searchsorted(known, hex_ids), len(known) - 1)
        entry = order[at].astype(np.int64)
        same = (known[at] == hex_ids) & (self._stamp_rows[entry] == stamps).all(axis=1)
        has_vector = stamps[:, NONCE_SIZE:].any(axis=1)
        same &= ~has_vector | (self.flag_array[entry] & _HAS_VECTOR != 0)
        return np.where(same, entry, -1)

    def vector_flags(self) -> np.ndarray:
        return self.flag_array & _HAS_VECTOR != 0

    def exact_mentions(self) -> np.ndarray:
        return self.flag_array & _MENTION_EXACT != 0

    def position(self, memory_id: str, stamp: bytes) -> int | None:
        """The entry of this memory if it was made from the content and vector the row holds now."""
        at = self._position.get(memory_id)
        if at is None or self._stamps[at * STAMP_SIZE : (at + 1) * STAMP_SIZE] != stamp:
            return None
        return at

    def has_vector(self, at: int) -> bool:
        return self.flags[at] & _HAS_VECTOR != 0

    def mention_exact(self, at: int) -> bool:
        return self.flags[at] & _MENTION_EXACT != 0

    def postings(self, key: int) -> tuple[np.ndarray, np.ndarray]:
        """The entries holding ``key`` and its count in each."""
        found = int(np.searchsorted(self.keys, np.uint64(key)))
        if found >= len(self.keys) or int(self.keys[found]) != key:
            return self.docs[:0], self.counts[:0]
        start, end = int(self.offsets[found]), int(self.offsets[found + 1])
        return self.docs[start:end], self.counts[start:end]


def retrieval_index_of(*, tenant_id: int, owner: str) -> IndexView | None:
    """The subject's opened index, or None: none built, its key destroyed, or a value that doesn't unpack
    (a read then ranks from the rows, as without an index)."""
    table = connection.ops.quote_name(RetrievalIndex._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT sealed FROM {table} WHERE tenant_id = %s AND owner = %s", [tenant_id, owner])  # noqa: S608
        row = cursor.fetchone()
    if row is None:
        return None
    blob = bytes(row[0])
    try:
        key = data_key_by_id(key_id_of(blob))
        if key is None:
            return None
        return IndexView(open_sealed_bytes_with(AESGCM(key), blob, aad=index_aad(tenant_id=tenant_id, owner=owner)))
    except DecryptionError:
        return None
    except Exception as exc:
        logger.warning("retrieval index of a subject of tenant %s not used (%s)", tenant_id, type(exc).__name__)
        return None
