"""Storing and removing memory vectors (``MemoryEmbedding``): written with the content, gone with it.

- A write or an edit embeds the new content at once when the embedder is *inline* (a local model);
  otherwise the vector is left to the background job (``memories.lifecycle.reembed``), and the memory
  ranks on its words until it has one.
- Deleting a memory deletes its vector in the same transaction: a deleted memory is never read, and
  its vector serves nothing. A purge or an erasure removes the memory row and, through the cascade,
  anything left (``MemoryEmbedding.memory`` is ``on_delete=CASCADE``).
- A failing embedder never fails a write: the vector is left missing (the job retries), and the log
  names the memory id and the embedder, never the text.

No audit event of its own: a vector changes only with the content it is derived from, whose change
is audited (``memory_updated`` and the write events); the re-embedding job audits its runs with counts.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
from django.db import connection

from dbkit.rows import insert_rows
from memories.embedding.embedders import Embedder, EmbedderUnavailable, current_embedder
from memories.embedding.vectors import pack_vector
from memories.models import Memory, MemoryEmbedding

logger = logging.getLogger("memgov.embeddings")


def memory_embeddings_store(*, memories: Sequence[Memory], vectors: np.ndarray, model: str, new: bool = False) -> int:
    """Replace the vectors of these memories (one row each, sealed with the memory's subject's key)."""
    if not memories:
        return 0
    if not new:
        MemoryEmbedding.objects.filter(memory_id__in=[m.pk for m in memories]).delete()
    rows = []
    for memory, vector in zip(memories, vectors, strict=True):
        row = MemoryEmbedding(memory_id=memory.pk, tenant_id=memory.tenant_id, user_id=memory.user_id, model=model)
        row.vector = pack_vector(vector)
        rows.append(row)
    insert_rows(rows)
    return len(rows)


def memory_embed_inline(*, memory: Memory, content: str, new: bool = False, embedder: Embedder | None = None) -> bool:
    """Embed a memory's (new) content now if the embedder is a local one; True when a vector was stored.

    Any earlier vector is removed first, so a memory never keeps the vector of content it no longer has
    (``new``: the memory was just created and has none).
    """
    if not new:
        MemoryEmbedding.objects.filter(memory_id=memory.pk).delete()
    embedder = embedder or current_embedder()
    if embedder is None or not embedder.inline:
        return False
    try:
        vectors = embedder.embed([content], kind="document")
    except EmbedderUnavailable as exc:
        logger.warning("embedding of memory %s left to the background job: %s", memory.pk, exc)
        return False
    memory_embeddings_store(memories=[memory], vectors=vectors, model=embedder.name, new=new)
    return True


def memory_embedding_delete(*, memory_id: object) -> int:
    """Remove a memory's vector (deletion, or content that changed).

    On SQLite, ``secure_delete`` is turned on for the connection first, so the freed cells are zeroed
    rather than left in the file until reused (the purge job does the same for the content, and
    empties the write-ahead log after it).
    """
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA secure_delete = ON")
    count, _ = MemoryEmbedding.objects.filter(memory_id=memory_id).delete()
    return count
