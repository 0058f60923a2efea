"""WordLlama's ``l2_supercat`` 256-d static model, from the files inside the ``wordllama`` wheel: loaded once per
process for both its readers, the gate's injection classifier (``injection_model``) and the builtin embedder
of the read path (``memories.embedding.embedders``). Nothing is downloaded. Its matrix, as the float32 the
model computes with, is a file in MEMGOV_VAR_DIR that every process maps (:mod:`governance.mapped_files`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from threading import Lock
from typing import Any

import numpy as np

from governance.mapped_files import table_directory

_lock = Lock()


def l2_supercat() -> Any:
    """A ``WordLlamaInference`` over the shipped weights, loaded once: threads that ask at the same time
    wait for the one load (about a second) rather than each making their own."""
    with _lock:
        return _load()


@cache
def _load() -> Any:
    import wordllama
    from wordllama import WordLlama
    from wordllama.inference import WordLlamaInference

    # The files inside the wheel, opened directly: WordLlama.load() looks for the tokenizer under a folder
    # name the wheel doesn't use, and would try to download it.
    root = Path(wordllama.__file__).parent
    tokenizer = WordLlama.load_tokenizer(root / "tokenizers" / "l2_supercat_tokenizer_config.json")
    directory = table_directory("l2-supercat", _digest(), _write_float32)
    matrix = np.load(directory / "embedding.npy", mmap_mode="r")
    model = WordLlamaInference(matrix[:1], tokenizer, binary=False)
    # The model reads rows of the matrix, which it would otherwise hold as its own float32 copy (32 MB a
    # process): mapped, it is one copy for the machine (governance.mapped_files), the same numbers.
    model.embedding = np.asarray(matrix)
    return model


def mean_embeddings(texts: Sequence[str]) -> np.ndarray:
    """The model's mean-pooled token embeddings of ``texts`` (float32, one row per text, not normalized).

    The same numbers as ``WordLlamaInference.embed(texts, norm=False)`` (tested equal), without what a
    batch call adds for one or two short texts: padding to the longest, a mask, a parallel tokenizer.
    """
    model = l2_supercat()
    matrix = model.embedding
    last = matrix.shape[0] - 1
    pooled = np.empty((len(texts), matrix.shape[1]), dtype=np.float32)
    for row, text in enumerate(texts):
        ids = np.asarray(model.tokenizer.encode(text, add_special_tokens=False).ids, dtype=np.intp)
        np.clip(ids, 0, last, out=ids)
        pooled[row] = matrix[ids].sum(axis=0, dtype=np.float32) / max(len(ids), 1)
    return pooled


def _digest() -> str:
    from importlib.metadata import version

    return hashlib.sha256(f"{version('wordllama')}|l2_supercat_256|float32|1".encode()).hexdigest()[:16]


def _write_float32(directory: Path) -> None:
    import wordllama
    from safetensors import safe_open

    weights = Path(wordllama.__file__).parent / "weights" / "l2_supercat_256.safetensors"
    with safe_open(str(weights), framework="np") as stored:
        matrix = stored.get_tensor("embedding.weight")
    np.save(directory / "embedding.npy", np.ascontiguousarray(matrix.astype(np.float32)))
