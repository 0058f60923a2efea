"""Opening a read's sealed values: a cipher per data key per read, not per value."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from memories.embedding.vectors import unpack_vector
from memories.models import MemoryEmbedding
from vault import DecryptionError
from vault.datakeys import data_key_by_id
from vault.envelope import associated_data, key_id_of, open_sealed_with

if TYPE_CHECKING:
    from memories.read.scope import ContextCandidate

_VECTOR_FIELD = MemoryEmbedding._meta.get_field("vector").attname
_VECTOR_MODEL = MemoryEmbedding._meta.label_lower


class SealedOpener:
    """Opens sealed values of one tenant, with a cipher made once per data key (making one is a third of
    opening a short value); None for a value that doesn't open here or whose key was destroyed."""

    def __init__(self, tenant_id: int) -> None:
        self.tenant_id = tenant_id
        self._ciphers: dict[int, AESGCM | None] = {}

    def open(self, blob: bytes, *, model: str, record_id: str, field: str) -> str | None:
        try:
            key_id = key_id_of(blob)
            if key_id not in self._ciphers:
                key = data_key_by_id(key_id)
                self._ciphers[key_id] = None if key is None else AESGCM(key)
            cipher = self._ciphers[key_id]
            if cipher is None:
                return None
            aad = associated_data(model=model, tenant_id=self.tenant_id, record_id=record_id, field=field)
            return open_sealed_with(cipher, blob, aad=aad)
        except DecryptionError:
            return None

    def vector(self, blob: bytes | None, *, record_id: str) -> np.ndarray | None:
        """A memory's sealed vector, opened (None without one, or when it doesn't open or unpack)."""
        if blob is None:
            return None
        packed = self.open(blob, model=_VECTOR_MODEL, record_id=record_id, field=_VECTOR_FIELD)
        try:
            return None if packed is None else unpack_vector(packed)
        except ValueError:  # not a vector (a damaged row): ranked without one
            return None


def open_vectors(candidates: list[ContextCandidate], *, tenant_id: int) -> list[np.ndarray | None]:
    """Each candidate's vector, opened (None where it has none, or it doesn't open for this row)."""
    opener = SealedOpener(tenant_id)
    return [opener.vector(candidate.vector, record_id=candidate.id) for candidate in candidates]
