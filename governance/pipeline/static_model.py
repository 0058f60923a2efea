"""WordLlama's ``l2_supercat`` 256-d static model, from the files inside the ``wordllama`` wheel: loaded once per
process for both its readers, the gate's injection classifier (``injection_model``) and the builtin embedder
of the read path (``memories.embedding.embedders``). Nothing is downloaded. Its matrix, as the float32 the
model computes with, is a file in MEMGOV_VAR_DIR that every process maps (:mod:`governance.mapped_files`)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from threading import Lock
from typing import Any

from governance.mapped_files import table_directory

_lock = Lock()


def l2_supercat() -> Any:
    """A ``WordLlamaInference`` over the shipped weights, loaded once: threads that ask at the same time
    wait for the one load (about a second) rather than each making their own."""
    with _lock:
        return _load()


@cache
def _load() -> Any:
    import numpy as np
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


def _digest() -> str:
    from importlib.metadata import version

    return hashlib.sha256(f"{version('wordllama')}|l2_supercat_256|float32|1".encode()).hexdigest()[:16]


def _write_float32(directory: Path) -> None:
    import numpy as np
    import wordllama
    from safetensors import safe_open

    weights = Path(wordllama.__file__).parent / "weights" / "l2_supercat_256.safetensors"
    with safe_open(str(weights), framework="np") as stored:
        matrix = stored.get_tensor("embedding.weight")
    np.save(directory / "embedding.npy", np.ascontiguousarray(matrix.astype(np.float32)))
