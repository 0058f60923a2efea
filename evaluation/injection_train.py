"""Train the injection classifier's weights from the synthetic corpus (evaluation/injection_corpus.py).

Plain numpy, full-batch gradient descent with Adam on the L2-regularized logistic loss, a fixed number of
steps from zero weights: the same seed gives the same corpus, the same features and the same weights.
``python manage.py train_injection_classifier`` writes them to governance/pipeline/weights/.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evaluation.injection_corpus import build_corpus
from governance.pipeline.injection_model import BUCKETS, EMBED_DIM, WEIGHTS, dense_features, sparse_features
from governance.pipeline.screen import screen

SEED = 20261202
CORPUS_SIZE = 6000
STEPS = 400
LEARNING_RATE = 0.05
L2 = 1e-4


def train(seed: int = SEED, size: int = CORPUS_SIZE, steps: int = STEPS) -> tuple[np.ndarray, float]:
    """The weights (sparse buckets then embedding dimensions) and bias learned from the corpus of ``seed``."""
    texts, labels = build_corpus(seed, size)
    texts = [screen(text) for text in texts]  # the classifier scores screened readings
    y = np.asarray(labels, dtype=np.float64)
    rows, cols, vals = [], [], []
    for i, text in enumerate(texts):
        index, values = sparse_features(text)
        rows.append(np.full(len(index), i, dtype=np.int64))
        cols.append(index)
        vals.append(values)
    r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    dense = dense_features(texts)
    n = len(texts)
    w = np.zeros(BUCKETS + EMBED_DIM)
    b = 0.0
    m, s = np.zeros_like(w), np.zeros_like(w)
    mb = sb = 0.0
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, steps + 1):
        logits = np.bincount(r, weights=v * w[c], minlength=n) + dense @ w[BUCKETS:] + b
        err = 1.0 / (1.0 + np.exp(-logits)) - y
        grad = np.empty_like(w)
        grad[:BUCKETS] = np.bincount(c, weights=v * err[r], minlength=BUCKETS) / n
        grad[BUCKETS:] = dense.T @ err / n
        grad += L2 * w
        gb = float(err.mean())
        m = beta1 * m + (1 - beta1) * grad
        s = beta2 * s + (1 - beta2) * grad * grad
        w -= LEARNING_RATE * (m / (1 - beta1**step)) / (np.sqrt(s / (1 - beta2**step)) + eps)
        mb = beta1 * mb + (1 - beta1) * gb
        sb = beta2 * sb + (1 - beta2) * gb * gb
        b -= LEARNING_RATE * (mb / (1 - beta1**step)) / (np.sqrt(sb / (1 - beta2**step)) + eps)
    return w.astype(np.float32), float(np.float32(b))


def write_weights(path: Path = WEIGHTS, seed: int = SEED) -> Path:
    weights, bias = train(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, weights=weights, bias=np.asarray([bias], dtype=np.float32), seed=np.asarray([seed]))
    return path
