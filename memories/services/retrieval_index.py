"""Building and dropping retrieval indexes (``memories.models.RetrievalIndex``).

- ``retrieval_index_refresh`` indexes a subject's newest ``CANDIDATE_LIMIT`` active memories: each one opened
  once and its features computed (``memories.read.features``) outside any transaction; then, in one short
  transaction, the rows are read again (``FOR UPDATE`` on PostgreSQL) and only the entries whose memory still
  holds the content and vector they were made from are sealed, with the subject's data key, and stored. A
  memory deleted or edited while the index was built is thus left out, and no lock is held while memories
  are opened. Subjects with fewer than ``INDEX_MIN_MEMORIES`` get none: a read ranks a handful of memories
  as fast without one. A tenant's shared rules are not indexed (they are few; a read opens them).
- ``retrieval_index_drop`` removes a subject's index in the transaction that deletes, purges or erases one
  of their memories, after the memory's row is locked (the order a refresh takes them in): an index holds
  what a memory's text is made of, so it never outlives the memory.
- ``retrieval_index_request`` is how a read that found an index missing or behind asks for one: it records
  the subject (``RetrievalIndexWanted``) for the ``retrieval`` job (``memories.lifecycle.retrieval``), at
  most once a minute per subject and process. A read never waits for a broker.

No audit event: an index changes nothing anybody can read, only how fast a read finds it.
"""

from __future__ import annotations

import logging
import time

from django.db import DatabaseError, connection, transaction
from django.db.models import Count
from django.utils import timezone

from dbkit.scrub import sqlite_secure_delete_on
from governance.vocabulary import Status
from memories.embedding.embedders import current_embedder
from memories.embedding.vectors import unpack_vector
from memories.models import Memory, MemoryEmbedding, RetrievalIndex, RetrievalIndexWanted
from memories.read.features import text_features
from memories.read.index import NO_VECTOR, IndexEntry, index_aad, pack_index
from memories.read.scope import CANDIDATE_LIMIT
from vault import DecryptionError
from vault.datakeys import data_key_existing
from vault.envelope import NONCE_SIZE, NONCE_SQL_START, nonce_of, seal_bytes
from vault.fields import decrypt_column

INDEX_MIN_MEMORIES = 40
INDEX_STALE_MIN = 8  # a read asks for a refresh once this many (and a tenth) of its own memories are not indexed
REQUEST_EVERY_S = 60.0  # a process asks again for the same subject at most this often
_REQUESTS_KEPT = 10_000  # the throttle's memory, per process
_requested: dict[tuple[int, str], float] = {}
logger = logging.getLogger("memgov.read")


def _owner_rows(*, tenant_id: int, owner: str, model: str, stamps: bool) -> list[tuple[str, bytes, bytes | None]]:
    """The subject's newest active memories: (id, sealed content, sealed vector), or their nonces only
    (``stamps``: read ``FOR UPDATE`` on PostgreSQL, in the caller's transaction)."""
    qn = connection.ops.quote_name
    table, embedding = qn(Memory._meta.db_table), qn(MemoryEmbedding._meta.db_table)

    def column(name: str) -> str:
        return f"substr({name}, {NONCE_SQL_START}, {NONCE_SIZE})" if stamps else name

    lock = " FOR UPDATE OF m" if stamps and connection.features.has_select_for_update_of else ""
    sql = (
        f"SELECT m.id, {column('m.content')}, (SELECT {column('e.vector')} FROM {embedding} e"  # noqa: S608
        " WHERE e.memory_id = m.id AND e.model = %s)"
        f" FROM {table} m WHERE m.tenant_id = %s AND m.user_id = %s AND m.status = %s"
        f" ORDER BY m.updated_at DESC, m.id DESC LIMIT %s{lock}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [model, tenant_id, owner, Status.ACTIVE.value, CANDIDATE_LIMIT])
        rows = cursor.fetchall()
    to_id = Memory._meta.pk.to_python
    return [(str(to_id(i)), bytes(content), None if vector is None else bytes(vector)) for i, content, vector in rows]


def _entry(*, tenant_id: int, memory_id: str, content: bytes, vector: bytes | None) -> IndexEntry | None:
    try:
        text = decrypt_column(Memory, "content", tenant_id=tenant_id, record_id=memory_id, blob=content)
        opened = None
        if vector is not None:
            packed = decrypt_column(MemoryEmbedding, "vector", tenant_id=tenant_id, record_id=memory_id, blob=vector)
            opened = unpack_vector(packed)
    except (DecryptionError, ValueError):
        return None
    stamp = nonce_of(content) + (nonce_of(vector) if vector is not None else NO_VECTOR)
    return IndexEntry(memory_id, stamp, text_features(text), opened)


def retrieval_index_refresh(*, tenant_id: int, owner: str) -> int:
    """(Re)build one subject's index; the number of memories it holds (0: none kept)."""
    embedder = current_embedder()
    model = embedder.name if embedder is not None else ""
    rows = _owner_rows(tenant_id=tenant_id, owner=owner, model=model, stamps=False)
    entries = []
    if len(rows) >= INDEX_MIN_MEMORIES:
        for memory_id, content, vector in rows:
            entry = _entry(tenant_id=tenant_id, memory_id=memory_id, content=content, vector=vector)
            if entry is not None:
                entries.append(entry)
    with transaction.atomic():
        current = {
            memory_id: content + (vector or NO_VECTOR)
            for memory_id, content, vector in _owner_rows(tenant_id=tenant_id, owner=owner, model=model, stamps=True)
        }
        entries = [entry for entry in entries if current.get(entry.memory_id) == entry.stamp]
        key = data_key_existing(tenant_id=tenant_id, owner=owner)  # an erased subject gets no new key
        if len(entries) < INDEX_MIN_MEMORIES or key is None:
            retrieval_index_drop(tenant_id=tenant_id, owner=owner)
            return 0
        dims = {entry.vector.shape[0] for entry in entries if entry.vector is not None}
        dim = dims.pop() if len(dims) == 1 else 0
        key_id, data_key = key
        aad = index_aad(tenant_id=tenant_id, owner=owner)
        sealed = seal_bytes(pack_index(entries, model=model, dim=dim), key_id=key_id, key=data_key, aad=aad)
        RetrievalIndex.objects.update_or_create(
            tenant_id=tenant_id,
            owner=owner,
            defaults={"model": model, "entries": len(entries), "sealed": sealed, "built_at": timezone.now()},
        )
    return len(entries)


def retrieval_index_drop(*, tenant_id: int, owner: str) -> int:
    """Remove a subject's index (in the caller's transaction); how many were removed (0 or 1)."""
    indexes = RetrievalIndex.objects.filter(tenant_id=tenant_id, owner=owner)
    if not indexes.exists():
        return 0
    sqlite_secure_delete_on()  # the freed cells are zeroed, not left in the file
    removed, _ = indexes.delete()
    return removed


def retrieval_index_request(*, tenant_id: int, owner: str) -> None:
    """Record that a read wants this subject's index built (see the module docstring). A database that
    can't take the note now (a locked SQLite file) costs the read nothing: a later read asks again."""
    now = time.monotonic()
    if now - _requested.get((tenant_id, owner), -REQUEST_EVERY_S) < REQUEST_EVERY_S:
        return
    if len(_requested) >= _REQUESTS_KEPT:
        _requested.clear()
    _requested[(tenant_id, owner)] = now
    try:
        RetrievalIndexWanted.objects.get_or_create(
            tenant_id=tenant_id, owner=owner, defaults={"wanted_at": timezone.now()}
        )
    except DatabaseError as exc:
        logger.warning("retrieval index not requested (%s)", type(exc).__name__)


def retrieval_index_owners(*, tenant_id: int | None = None) -> list[tuple[int, str]]:
    """The (tenant, subject) pairs with enough active memories to be indexed."""
    rows = Memory.objects.filter(status=Status.ACTIVE).exclude(user_id="")
    if tenant_id is not None:
        rows = rows.filter(tenant_id=tenant_id)
    grouped = rows.values("tenant_id", "user_id").annotate(active=Count("id")).filter(active__gte=INDEX_MIN_MEMORIES)
    return sorted((row["tenant_id"], row["user_id"]) for row in grouped)
