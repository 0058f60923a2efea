"""A learned second opinion on rule 4: how much a text reads like an instruction a memory must not carry.

The guard's lexicons recognise injections by their wording; a paraphrase they were not written for gets
through. This is a small logistic regression over features that carry across wordings:

- hashed character n-grams (2–4) of the lower-cased text — they see through inflections, compounds and
  Chinese, which has no spaces — and hashed word unigrams and bigrams, L2-normalized together;
- the 256-d static embedding of the text by WordLlama's ``l2_supercat`` model, which ships inside the
  ``wordllama`` wheel (nothing is downloaded): paraphrases land near each other.

The weights (``weights/injection_lr.npz``, float32, a few hundred kB) are trained only on a synthetic
corpus generated from a taxonomy (``evaluation/injection_corpus.py``), never on an evaluation set, and
rebuilt byte for byte by ``python manage.py train_injection_classifier`` from its seed. Scoring is pure
and deterministic: the same text always has the same score. :func:`injection_score` is the probability;
the guard compares it with :data:`THRESHOLD` (chosen on the dev splits only).
"""

from __future__ import annotations

import re
import zlib
from functools import cache
from pathlib import Path
from threading import Lock

import numpy as np

from governance.pipeline.static_model import l2_supercat, mean_embeddings

WEIGHTS = Path(__file__).with_name("weights") / "injection_lr.npz"
HASH_BITS = 16
BUCKETS = 1 << HASH_BITS
EMBED_DIM = 256
FEATURES = BUCKETS + EMBED_DIM
NGRAMS = (2, 3, 4)
MAX_CHARS = 2000
_WORD = re.compile(r"[a-z0-9_']+|[\u4e00-\u9fff]")
_SPACE = re.compile(r"\s+")


def _bucket(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) & (BUCKETS - 1)


def sparse_features(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Bucket indices and values (L2-normalized counts) of the hashed n-grams of ``text``."""
    lowered = _SPACE.sub(" ", text[:MAX_CHARS].lower()).strip()
    padded = f" {lowered} "
    counts: dict[int, float] = {}
    for n in NGRAMS:
        for i in range(len(padded) - n + 1):
            key = _bucket(f"c{n}:{padded[i : i + n]}")
            counts[key] = counts.get(key, 0.0) + 1.0
    words = _WORD.findall(lowered)
    for i, word in enumerate(words):
        key = _bucket(f"w:{word}")
        counts[key] = counts.get(key, 0.0) + 1.0
        if i:
            key = _bucket(f"b:{words[i - 1]} {word}")
            counts[key] = counts.get(key, 0.0) + 1.0
    if not counts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    index = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
    values = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
    return index, values / np.linalg.norm(values)


def dense_features(texts: list[str]) -> np.ndarray:
    """The L2-normalized static embeddings of ``texts`` (float64, one row per text)."""
    matrix = np.asarray(mean_embeddings([t[:MAX_CHARS] for t in texts]), dtype=np.float64)
    matrix = matrix.reshape(len(texts), EMBED_DIM)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


_weights_lock = Lock()


def _weights() -> tuple[np.ndarray, np.ndarray, float]:
    with _weights_lock:  # one load, however many threads ask first
        return _load_weights()


@cache
def _load_weights() -> tuple[np.ndarray, np.ndarray, float]:
    with np.load(WEIGHTS) as data:
        weights = data["weights"].astype(np.float64)
        return weights[:BUCKETS], weights[BUCKETS:], float(data["bias"][0])


def injection_score(texts: tuple[str, ...]) -> float:
    """The highest probability, over ``texts`` (readings of one content), that it is an injection."""
    sparse_w, dense_w, bias = _weights()
    dense = dense_features(list(texts)) @ dense_w
    best = 0.0
    for text, dense_part in zip(texts, dense, strict=True):
        index, values = sparse_features(text)
        logit = float(values @ sparse_w[index]) + float(dense_part) + bias
        best = max(best, 1.0 / (1.0 + np.exp(-logit)))
    return best


def warm_up() -> None:
    """Load the weights and the static model now, not on a worker's first write."""
    _weights()
    l2_supercat()


# Chosen on the dev splits only (docs/evaluation.md): the lowest that adds no false reject there.
THRESHOLD = 0.6
