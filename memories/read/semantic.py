"""The semantic part of relevance (``ranking.py``): how far each memory's cosine to the query stands above
the request's mean, as a share of the best one's lead."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np


class VectorMatrix(NamedTuple):
    """The vectors of a read's memories as one matrix: row k is the vector of memory ``present[k]``."""

    matrix: np.ndarray
    present: list[int] | np.ndarray
    count: int  # how many memories (with a vector or not)


class SemanticParts(NamedTuple):
    parts: np.ndarray  # float64: the semantic part, 0..1
    cosines: np.ndarray  # float64: the cosine where ``present``
    present: np.ndarray  # bool: the memory has a vector that took part
    strong: np.ndarray  # bool: its cosine stands the floor's deviations above the mean (a match on meaning alone)


def semantic_arrays(
    query_vector: np.ndarray | None, vectors: Sequence[np.ndarray | None] | VectorMatrix, *, floor: float
) -> SemanticParts:
    """Each memory's semantic part, cosine and strength, as arrays (``semantic_scores``)."""
    if isinstance(vectors, VectorMatrix):
        count, present = vectors.count, np.asarray(vectors.present, dtype=np.intp)
    else:
        count = len(vectors)
        present = np.array([i for i, v in enumerate(vectors) if v is not None], dtype=np.intp)
    none = SemanticParts(np.zeros(count), np.zeros(count), np.zeros(count, dtype=bool), np.zeros(count, dtype=bool))
    if query_vector is None or len(present) < 2:
        return none
    matrix = vectors.matrix if isinstance(vectors, VectorMatrix) else np.vstack([vectors[i] for i in present])
    if matrix.shape[1] != query_vector.shape[0]:  # vectors of another model's size: ignored
        return none
    # Centered on the candidates' mean vector: what all of a subject's memories share (their topic,
    # their language, the model's own bias) says nothing about which one the query is about.
    center = matrix.mean(axis=0)
    matrix = matrix - center
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
    query_vector = query_vector - center
    query_vector = query_vector / max(float(np.linalg.norm(query_vector)), 1e-9)
    values = matrix @ query_vector
    mean, spread, best = float(values.mean()), float(values.std()), float(values.max())
    lead = best - mean
    # Among n cosines none stands more than (n − 1)/√n deviations above their mean: with few candidates
    # the floor is lowered to three quarters of that, so a clear best can still pass.
    n = len(present)
    floor = min(floor, 0.75 * (n - 1) / math.sqrt(n))
    # In float64, as Python's floats: each value is the one a candidate alone would get.
    cosines = values.astype(np.float64)
    parts, strong, found = none.parts, none.strong, none.present
    if lead > 0:
        share = (cosines - mean) / lead
        parts[present] = np.where(share > 0.0, share, 0.0)
    if spread > 0:
        strong[present] = cosines - mean >= floor * spread
    found[present] = True
    everything = np.zeros(count)
    everything[present] = cosines
    return SemanticParts(parts, everything, found, strong)


def semantic_scores(
    query_vector: np.ndarray | None, vectors: Sequence[np.ndarray | None] | VectorMatrix, *, floor: float
) -> tuple[list[float], list[float | None], list[bool]]:
    """Each memory's semantic part (0..1), its cosine (None without a vector), and whether its cosine
    stands ``floor`` standard deviations above the request's mean (a match on meaning alone)."""
    found = semantic_arrays(query_vector, vectors, floor=floor)
    cosines = [value if present else None for value, present in zip(found.cosines.tolist(), found.present, strict=True)]
    return found.parts.tolist(), cosines, found.strong.tolist()
