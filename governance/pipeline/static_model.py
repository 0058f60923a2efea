"""WordLlama's ``l2_supercat`` 256-d static model, from the files inside the ``wordllama`` wheel: loaded once per
process for both its readers, the gate's injection classifier (``injection_model``) and the builtin embedder
of the read path (``memories.embedding.embedders``). Nothing is downloaded."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from threading import Lock
from typing import Any

_lock = Lock()


def l2_supercat() -> Any:
    """A ``WordLlamaInference`` over the shipped weights, loaded once: threads that ask at the same time
    wait for the one load (about a second) rather than each making their own."""
    with _lock:
        return _load()


@cache
def _load() -> Any:
    import wordllama
    from safetensors import safe_open
    from wordllama import WordLlama
    from wordllama.inference import WordLlamaInference

    # The files inside the wheel, opened directly: WordLlama.load() looks for the tokenizer under a folder
    # name the wheel doesn't use, and would try to download it.
    root = Path(wordllama.__file__).parent
    tokenizer = WordLlama.load_tokenizer(root / "tokenizers" / "l2_supercat_tokenizer_config.json")
    with safe_open(str(root / "weights" / "l2_supercat_256.safetensors"), framework="np") as weights:
        matrix = weights.get_tensor("embedding.weight")
    return WordLlamaInference(matrix, tokenizer, binary=False)
