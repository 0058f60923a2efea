"""Building and dropping retrieval indexes (``memories.models.RetrievalIndex``).

- ``retrieval_index_refresh`` indexes an owner's active memories: each one opened once, its features
  computed (``memories.read.features``), the whole sealed with the owner's data key. Owners with fewer than
  ``INDEX_MIN_MEMORIES`` get none (a read ranks a handful of memories as fast without one). The read path
  asks for a refresh when it finds an index missing or out of date (``memgov.retrieval.refresh``), and
  ``manage.py refresh_retrieval_indexes`` builds them all.
- ``retrieval_index_drop`` removes an owner's index in the transaction that deletes, purges or erases one
  of their memories: an index holds what a memory's text is made of, so it never outlives the memory.

The memory rows are read ``FOR UPDATE`` (on PostgreSQL; SQLite serializes writers already), so a deletion
committed while an index is built waits for it and drops it, or is seen by it. No audit event: an index
changes nothing anybody can read, only how fast a read finds it.
"""

from __future__ import annotations

import base64
import logging
import time

import numpy as np
from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from dbkit.scrub import sqlite_secure_delete_on
from governance.vocabulary import Status
from memories.embedding.embedders import current_embedder
from memories.models import Memory, MemoryEmbedding, RetrievalIndex
from memories.read.features import text_features
from memories.read.index import IndexEntry, index_aad, pack_index
from vault import DecryptionError
from vault.datakeys import data_key_for
from vault.envelope import nonce_of, seal_bytes
from vault.fields import decrypt_column

INDEX_MIN_MEMORIES = 40
INDEX_STALE_MIN = 8  # a read asks for a refresh once this many (and a tenth) of its memories are not indexed
REQUEST_EVERY_S = 60.0  # a process asks again for the same owner at most this often
_NO_VECTOR = bytes(12)
_requested: dict[tuple[int, str], float] = {}
logger = logging.getLogger("memgov.read")


def _owner_rows(*, tenant_id: int, owner: str, model: str) -> list[tuple[object, bytes, bytes | None]]:
    qn = connection.ops.quote_name
    table, embedding = qn(Memory._meta.db_table), qn(MemoryEmbedding._meta.db_table)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    sql = (
        f"SELECT m.id, m.content, (SELECT e.vector FROM {embedding} e"  # noqa: S608
        " WHERE e.memory_id = m.id AND e.model = %s)"
        f" FROM {table} m WHERE m.tenant_id = %s AND m.user_id = %s AND m.status = %s ORDER BY m.id{lock}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [model, tenant_id, owner, Status.ACTIVE.value])
        return [(row[0], bytes(row[1]), None if row[2] is None else bytes(row[2])) for row in cursor.fetchall()]


def _entry(*, tenant_id: int, memory_id: str, content: bytes, vector: bytes | None) -> IndexEntry | None:
    try:
        text = decrypt_column(Memory, "content", tenant_id=tenant_id, record_id=memory_id, blob=content)
        opened = None
        if vector is not None:
            packed = decrypt_column(MemoryEmbedding, "vector", tenant_id=tenant_id, record_id=memory_id, blob=vector)
            opened = np.frombuffer(base64.b64decode(packed), dtype="<f2")
    except (DecryptionError, ValueError):
        return None
    stamp = nonce_of(content) + (nonce_of(vector) if vector is not None else _NO_VECTOR)
    return IndexEntry(memory_id, stamp, text_features(text), opened)


@transaction.atomic
def retrieval_index_refresh(*, tenant_id: int, owner: str) -> int:
    """(Re)build one owner's index; the number of memories it holds (0: none kept, too few)."""
    embedder = current_embedder()
    model = embedder.name if embedder is not None else ""
    rows = _owner_rows(tenant_id=tenant_id, owner=owner, model=model)
    if len(rows) < INDEX_MIN_MEMORIES:
        retrieval_index_drop(tenant_id=tenant_id, owner=owner)
        return 0
    entries = []
    for memory_id, content, vector in rows:
        record = str(Memory._meta.pk.to_python(memory_id))
        entry = _entry(tenant_id=tenant_id, memory_id=record, content=content, vector=vector)
        if entry is not None:
            entries.append(entry)
    dims = {entry.vector.shape[0] for entry in entries if entry.vector is not None}
    dim = dims.pop() if len(dims) == 1 else 0
    key_id, key = data_key_for(tenant_id=tenant_id, owner=owner)
    aad = index_aad(tenant_id=tenant_id, owner=owner)
    sealed = seal_bytes(pack_index(entries, model=model, dim=dim), key_id=key_id, key=key, aad=aad)
    RetrievalIndex.objects.update_or_create(
        tenant_id=tenant_id,
        owner=owner,
        defaults={"model": model, "entries": len(entries), "sealed": sealed, "built_at": timezone.now()},
    )
    return len(entries)


def retrieval_index_drop(*, tenant_id: int, owner: str) -> int:
    """Remove an owner's index (in the caller's transaction); how many were removed (0 or 1)."""
    indexes = RetrievalIndex.objects.filter(tenant_id=tenant_id, owner=owner)
    if not indexes.exists():
        return 0
    sqlite_secure_delete_on()  # the freed cells are zeroed, not left in the file
    removed, _ = indexes.delete()
    return removed


def retrieval_index_request(*, tenant_id: int, owners: tuple[str, ...]) -> None:
    """Ask a worker to refresh these owners' indexes (once the caller's transaction commits; at most once
    a minute per owner from one process). A broker that can't take the task costs the read nothing: the
    index is asked for again by a later read."""
    from memories.tasks import retrieval_index_refresh_task

    now = time.monotonic()
    for owner in owners:
        if now - _requested.get((tenant_id, owner), -REQUEST_EVERY_S) < REQUEST_EVERY_S:
            continue
        _requested[(tenant_id, owner)] = now

        def send(owner: str = owner) -> None:
            try:
                # Once, without the publisher's retries: a broker that is down must not hold the reply.
                retrieval_index_refresh_task.apply_async(kwargs={"tenant_id": tenant_id, "owner": owner}, retry=False)
            except Exception as exc:
                logger.warning("retrieval index refresh not queued (%s)", type(exc).__name__)
                _requested.pop((tenant_id, owner), None)

        transaction.on_commit(send)


def retrieval_index_owners(*, tenant_id: int | None = None) -> list[tuple[int, str]]:
    """The (tenant, owner) pairs with enough active memories to be indexed."""
    rows = Memory.objects.filter(status=Status.ACTIVE)
    if tenant_id is not None:
        rows = rows.filter(tenant_id=tenant_id)
    grouped = rows.values("tenant_id", "user_id").annotate(active=Count("id")).filter(active__gte=INDEX_MIN_MEMORIES)
    return sorted((row["tenant_id"], row["user_id"]) for row in grouped)
