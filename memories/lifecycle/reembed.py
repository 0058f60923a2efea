"""Re-embedding: every readable memory gets a vector of the current embedder; other vectors go.

After a change of model (``MEMGOV_EMBEDDER`` and its settings name the model; ``Embedder.name`` says
which one made a vector), the read path uses no vector of the old one: those memories rank on their
words alone until this job has embedded them again. It also fills the vectors an embedder that is
not inline (an endpoint) leaves to it, and the ones a failing embedder left missing.

One bounded run: the next ``batch_size`` memories (active, paused or pending: what can be read now
or later) without a vector of the current model, oldest id first; their content is opened, embedded
in one call, and each vector stored in one transaction per batch — only for the memories whose
content is still the one embedded (the fingerprint is checked again inside the transaction, so an
edit that landed meanwhile keeps its own vector). With ``MEMGOV_EMBEDDER=none`` the job removes
vectors instead: no derived copy of content is kept that nothing reads.

``reembed_progress`` counts what is done and what is left (the ``reembed_memories`` command prints it
after each batch). Counts only, never content, in logs and metrics; vectors are derived data of
content already audited, so the job writes no audit event per vector.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction

from governance.vocabulary import Status
from memories.embedding.embedders import Embedder, EmbedderUnavailable, current_embedder
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, timed_run
from memories.models import Memory, MemoryEmbedding
from memories.services.embeddings import memory_embeddings_store
from vault import DecryptionError

JOB = "reembed"
logger = logging.getLogger("memgov.lifecycle")

EMBEDDABLE = (Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL)


@dataclass(frozen=True)
class ReembedProgress:
    model: str  # the current embedder's name ("" for none)
    embedded: int  # readable memories with a vector of the current model
    remaining: int  # readable memories without one
    stale: int  # vectors of another model (replaced as their memories are embedded again)


def _scope(tenant_id: int | None):  # -> QuerySet[Memory]
    memories = Memory.objects.filter(status__in=EMBEDDABLE)
    return memories if tenant_id is None else memories.filter(tenant_id=tenant_id)


def _vectors(tenant_id: int | None):  # -> QuerySet[MemoryEmbedding]
    vectors = MemoryEmbedding.objects.all()
    return vectors if tenant_id is None else vectors.filter(tenant_id=tenant_id)


def reembed_progress(*, tenant_id: int | None = None, embedder: Embedder | None = None) -> ReembedProgress:
    embedder = embedder or current_embedder()
    model = embedder.name if embedder else ""
    readable = _scope(tenant_id)
    embedded = readable.filter(embedding__model=model).count() if model else 0
    return ReembedProgress(
        model=model,
        embedded=embedded,
        remaining=(readable.count() - embedded) if model else 0,
        stale=_vectors(tenant_id).exclude(model=model).count(),
    )


def _drop_all(result: JobResult, *, tenant_id: int | None, batch_size: int) -> None:
    ids = list(_vectors(tenant_id).order_by("memory_id").values_list("memory_id", flat=True)[:batch_size])
    deleted, _ = MemoryEmbedding.objects.filter(memory_id__in=ids).delete()
    result.add("removed", deleted)
    result.has_more = len(ids) == batch_size


def reembed_run(*, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> JobResult:
    """One bounded pass (see the module docstring)."""
    result = JobResult(JOB)
    with timed_run(result):
        embedder = current_embedder()
        if embedder is None:
            _drop_all(result, tenant_id=tenant_id, batch_size=batch_size)
            return result
        batch = list(
            _scope(tenant_id)
            .exclude(embedding__model=embedder.name)
            .only("id", "tenant_id", "user_id", "content", "fingerprint")
            .order_by("id")[:batch_size]
        )
        result.has_more = len(batch) == batch_size
        readable, texts = [], []
        for memory in batch:
            try:
                texts.append(memory.content)
            except DecryptionError:  # the subject was erased while we read: nothing to embed
                result.add("skipped")
                continue
            readable.append(memory)
        if not readable:
            return result
        try:
            vectors = embedder.embed(texts, kind="document")
        except EmbedderUnavailable as exc:
            logger.warning("reembed: %s; %d memories wait for the next run", exc, len(readable))
            result.add("unavailable", len(readable))
            result.has_more = False  # no point trying the next batch now
            return result
        with transaction.atomic():
            # Only memories whose content is still the one embedded, and still readable.
            current = set(
                Memory.objects.select_for_update()
                .filter(pk__in=[m.pk for m in readable], status__in=EMBEDDABLE)
                .values_list("pk", "fingerprint")
            )
            keep = [i for i, m in enumerate(readable) if (m.pk, m.fingerprint) in current]
            stored = memory_embeddings_store(
                memories=[readable[i] for i in keep], vectors=vectors[keep], model=embedder.name
            )
        result.add("embedded", stored)
        result.add("skipped", len(readable) - stored)
    return result
