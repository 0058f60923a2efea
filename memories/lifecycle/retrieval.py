"""Retrieval indexes: build the ones reads asked for (``memories.services.retrieval_index``).

A read that finds its subject's index missing or behind records the subject (``RetrievalIndexWanted``). One
bounded run takes the ``batch_size`` oldest requests, builds each subject's index (or drops it, when the
subject has too few memories now) and removes the request, unless a read asked again while it was built.
The beat runs it every minute by default. Counts only, never content.
"""

from __future__ import annotations

from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, timed_run
from memories.models import RetrievalIndexWanted
from memories.services.retrieval_index import retrieval_index_refresh

JOB = "retrieval"


def retrieval_run(*, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> JobResult:
    """One bounded pass (see the module docstring)."""
    result = JobResult(JOB)
    with timed_run(result):
        wanted = RetrievalIndexWanted.objects.order_by("wanted_at", "id")
        if tenant_id is not None:
            wanted = wanted.filter(tenant_id=tenant_id)
        batch = list(wanted[:batch_size])
        result.has_more = len(batch) == batch_size
        for request in batch:
            indexed = retrieval_index_refresh(tenant_id=request.tenant_id, owner=request.owner)
            RetrievalIndexWanted.objects.filter(pk=request.pk, wanted_at=request.wanted_at).delete()
            result.add("indexed" if indexed else "too_few")
    return result
