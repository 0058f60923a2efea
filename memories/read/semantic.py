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


class _Cosines(NamedTuple):
    present: list[int] | np.ndarray  # the memories with a vector, in order
    values: np.ndarray  # their cosines to the query (float32)
    mean: float
    spread: float
    lead: float  # the best cosine's lead over the mean
    floor: float  # the floor of a match on meaning alone, for this many


def _cosines(
    query_vector: np.ndarray | None, vectors: Sequence[np.ndarray | None] | VectorMatrix, *, floor: float
) -> _Cosines | None:
    if isinstance(vectors, VectorMatrix):
        present = vectors.present
    else:
        present = [i for i, v in enumerate(vectors) if v is not None]
    if query_vector is None or len(present) < 2:
        return None
    matrix = vectors.matrix if isinstance(vectors, VectorMatrix) else np.vstack([vectors[i] for i in present])
    if matrix.shape[1] != query_vector.shape[0]:  # vectors of another model's size: ignored
        return None
    # Centered on the candidates' mean vector: what all of a subject's memories share (their topic,
    # their language, the model's own bias) says nothing about which one the query is about.
    center = matrix.mean(axis=0)
    matrix = matrix - center
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
    query_vector = query_vector - center
    query_vector = query_vector / max(float(np.linalg.norm(query_vector)), 1e-9)
    values = matrix @ query_vector
    mean, spread, best = float(values.mean()), float(values.std()), float(values.max())
    # Among n cosines none stands more than (n − 1)/√n deviations above their mean: with few candidates
    # the floor is lowered to three quarters of that, so a clear best can still pass.
    n = len(present)
    return _Cosines(present, values, mean, spread, best - mean, min(floor, 0.75 * (n - 1) / math.sqrt(n)))


def semantic_arrays(
    query_vector: np.ndarray | None, vectors: Sequence[np.ndarray | None] | VectorMatrix, *, floor: float
) -> SemanticParts:
    """Each memory's semantic part, cosine and strength, as arrays (``semantic_scores``)."""
    count = vectors.count if isinstance(vectors, VectorMatrix) else len(vectors)
    parts, cosines = np.zeros(count), np.zeros(count)
    found, strong = np.zeros(count, dtype=bool), np.zeros(count, dtype=bool)
    measured = _cosines(query_vector, vectors, floor=floor)
    if measured is None:
        return SemanticParts(parts, cosines, found, strong)
    present, mean, spread, lead = measured.present, measured.mean, measured.spread, measured.lead
    # In float64, as Python's floats in semantic_scores: each value is the one a memory gets there.
    values = measured.values.astype(np.float64)
    if lead > 0:
        share = (values - mean) / lead
        parts[present] = np.where(share > 0.0, share, 0.0)
    if spread > 0:
        strong[present] = values - mean >= measured.floor * spread
    found[present] = True
    cosines[present] = values
    return SemanticParts(parts, cosines, found, strong)


def semantic_scores(
    query_vector: np.ndarray | None, vectors: Sequence[np.ndarray | None] | VectorMatrix, *, floor: float
) -> tuple[list[float], list[float | None], list[bool]]:
    """Each memory's semantic part (0..1), its cosine (None without a vector), and whether its cosine
    stands ``floor`` standard deviations above the request's mean (a match on meaning alone)."""
    count = vectors.count if isinstance(vectors, VectorMatrix) else len(vectors)
    parts, cosines, strong = [0.0] * count, [None] * count, [False] * count
    measured = _cosines(query_vector, vectors, floor=floor)
    if measured is None:
        return parts, cosines, strong  # type: ignore[return-value]
    mean, spread, lead, floor = measured.mean, measured.spread, measured.lead, measured.floor
    for i, value in zip(measured.present, measured.values.tolist(), strict=True):
        cosines[i] = value
        if lead > 0:
            share = (value - mean) / lead
            parts[i] = share if share > 0.0 else 0.0
        strong[i] = spread > 0 and value - mean >= floor * spread
    return parts, cosines, strong  # type: ignore[return-value]
