"""Re-indexing: every active memory's comparison index describes its text under the current parser.

A row's ``aspect_key`` names the parser and the text its ``aspect_tags`` were made from
(``memories.aspect_index``). Rows from before the index, rows whose text a path changed without
indexing it, and every row after a change to the parser don't match; a write still compares with
them by opening and parsing them, so they cost as before until this job has indexed them again.

One bounded run: the next ``batch_size`` such memories (active, paused or pending: what a write
compares with now or after a resume), oldest id first; each is opened and parsed, and its index
stored only if its fingerprint is still the one parsed (an edit meanwhile indexed itself). Counts
only, never content; the index is derived from content already audited, so no audit event per row.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q, Value
from django.db.models.functions import Concat, Substr

from governance.vocabulary import Status
from memories import aspect_index
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, timed_run
from memories.models import Memory
from vault import DecryptionError

JOB = "reindex"
INDEXED_STATUSES = (Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL)


def stale(tenant_id: int | None = None):  # -> QuerySet[Memory]
    """The memories whose index doesn't describe their text under the current parser."""
    current = Concat(Value(aspect_index.key_prefix()), Substr("fingerprint", 1, aspect_index.KEY_FINGERPRINT_HEX))
    memories = Memory.objects.filter(status__in=INDEXED_STATUSES).alias(current_key=current)
    memories = memories.filter(~Q(aspect_key=current))
    return memories if tenant_id is None else memories.filter(tenant_id=tenant_id)


def reindex_run(*, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> JobResult:
    """One bounded pass (see the module docstring)."""
    result = JobResult(JOB)
    with timed_run(result):
        batch = list(
            stale(tenant_id).only("id", "tenant_id", "user_id", "content", "fingerprint").order_by("id")[:batch_size]
        )
        result.has_more = len(batch) == batch_size
        for memory in batch:
            try:
                found = aspect_index.parsed(memory.content)
            except DecryptionError:  # erased while we read: nothing to index
                result.add("skipped")
                continue
            fields = aspect_index.index_fields(tenant_id=memory.tenant_id, fingerprint=memory.fingerprint, found=found)
            with transaction.atomic():
                updated = Memory.objects.filter(pk=memory.pk, fingerprint=memory.fingerprint).update(**fields)
            result.add("indexed" if updated else "skipped")
    return result
