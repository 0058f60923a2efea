"""A vector as the encrypted column holds it, and back.

A vector is stored as float16 (half the size of float32; cosine rankings don't move at this precision),
little-endian, base64 text inside ``MemoryEmbedding.vector``: the same AES-GCM field as a memory's
content, sealed with the same subject's data key, its associated data naming the row and the field.
"""

from __future__ import annotations

import base64

import numpy as np

_DTYPE = np.dtype("<f2")


def pack_vector(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype=_DTYPE).tobytes()).decode("ascii")


def unpack_vector(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype=_DTYPE).astype(np.float32)
