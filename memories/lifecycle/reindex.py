"""Re-indexing: every active memory's comparison index describes its text under the current parser.

A row's ``aspect_key`` names the parser and the text its ``aspect_tags`` were made from
(``memories.aspect_index``). Rows from before the index, rows whose text a path changed without
indexing it, and every row after a change to the parser don't match; a write still compares with
them by opening and parsing them, so they cost as before until this job has indexed them again.

One bounded run: the next ``batch_size`` such memories (active, paused or pending: what a write
compares with now or after a resume), oldest id first; each is opened and parsed, and its index
stored only if its fingerprint is still the one parsed (an edit meanwhile indexed itself). A row that
can't be opened is marked so under this parser (``unreadable``) and the job moves past it; a write still
parses it when it compares, as before. At the beat's default (every 5 minutes, 20 batches of 200) a
process indexes about 48,000 rows an hour. Counts only, never content; the index is derived from
content already audited, so no audit event per row.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Concat, Substr

from governance.vocabulary import Status
from memories import aspect_index
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, timed_run
from memories.models import Memory
from vault import DecryptionError

JOB = "reindex"
INDEXED_STATUSES = (Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL)


def stale(tenant_id: int | None = None):  # -> QuerySet[Memory]
    """The memories whose index doesn't describe their text under the current parser (those found
    unreadable under it left out: they wait for the next parser)."""
    current = Concat(Value(aspect_index.key_prefix()), Substr("fingerprint", 1, aspect_index.KEY_FINGERPRINT_HEX))
    unreadable = Concat(Value(aspect_index.UNREADABLE), current)
    memories = Memory.objects.filter(status__in=INDEXED_STATUSES).alias(current_key=current, unreadable_key=unreadable)
    memories = memories.filter(~Q(aspect_key=F("current_key")) & ~Q(aspect_key=F("unreadable_key")))
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
            except DecryptionError:  # its key is gone (erased while we read) or the row is damaged
                fields, outcome = aspect_index.unreadable_fields(memory.fingerprint), "unreadable"
            else:
                fields = aspect_index.index_fields(
                    tenant_id=memory.tenant_id, owner=memory.user_id, fingerprint=memory.fingerprint, found=found
                )
                outcome = "indexed"
            with transaction.atomic():
                updated = Memory.objects.filter(pk=memory.pk, fingerprint=memory.fingerprint).update(**fields)
            result.add(outcome if updated else "skipped")
    return result
