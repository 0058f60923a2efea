"""WordLlama's ``l2_supercat`` 256-d static model, from the files inside the ``wordllama`` wheel: loaded once per
process for both its readers, the gate's injection classifier (``injection_model``) and the builtin embedder
of the read path (``memories.embedding.embedders``). Nothing is downloaded."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any


@cache
def l2_supercat() -> Any:
    """A ``WordLlamaInference`` over the shipped weights (thread-safe to call: ``cache`` holds one)."""
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
