"""Citations (seed 000 "usage tracking", "citations"): which injected memories an answer actually used.

Every context read that injects memories gets a ``ContextRead`` row; item *i* of it has the citation id
``<read id>.<i>``. An agent reports the citations its answer used (``POST /api/v1/memories/used``): each
(read, item) counts once — reporting it again changes nothing — and bumps the memory's ``cited_count``
and ``last_cited_at``, which consolidation's top-N and the unused job read. Audited as ``memory_read``
with reason ``used_in_answer`` (ids and counts only).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.models import AgentClient
from memories.models import ContextRead, Memory

MAX_CITATIONS = 100


class CitationError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


@dataclass(frozen=True)
class UsedResult:
    recorded: int  # newly counted uses
    repeated: int  # already reported before


def citation_id(read_id: uuid.UUID, index: int) -> str:
    return f"{read_id}.{index}"


def _parse(value: object, where: str) -> tuple[uuid.UUID, int]:
    if not isinstance(value, str) or "." not in value:
        raise CitationError(where, "not a citation id (use an item's citation_id from /memories/context)")
    head, _, tail = value.rpartition(".")
    try:
        return uuid.UUID(head), int(tail)
    except ValueError:
        raise CitationError(where, "not a citation id (use an item's citation_id from /memories/context)") from None


def context_read_record(*, tenant_id: int, user_id: str, agent: AgentClient | None, memory_ids: list[str]) -> uuid.UUID:
    """The read's row (in the caller's transaction); its id names the items' citations."""
    read = ContextRead.objects.create(tenant_id=tenant_id, user_id=user_id, agent=agent, memory_ids=memory_ids)
    return read.pk


def memory_used_record(
    *,
    tenant_id: int,
    actor: str,
    citation_ids: list[object],
    subject_id: str | None = None,
    now: datetime | None = None,
) -> UsedResult:
    """Count the uses these citations report. An unknown id, another tenant's, or (for a person) another
    subject's is the same error: nothing is counted."""
    if not isinstance(citation_ids, list) or not citation_ids:
        raise CitationError("citation_ids", "send a non-empty list of citation ids")
    if len(citation_ids) > MAX_CITATIONS:
        raise CitationError("citation_ids", f"at most {MAX_CITATIONS} at a time")
    wanted: dict[uuid.UUID, set[int]] = defaultdict(set)
    for position, value in enumerate(citation_ids):
        read_id, index = _parse(value, f"citation_ids[{position}]")
        wanted[read_id].add(index)
    now = now or timezone.now()
    recorded = repeated = 0
    with transaction.atomic():
        reads = ContextRead.objects.select_for_update().filter(tenant_id=tenant_id, pk__in=list(wanted))
        if subject_id is not None:
            reads = reads.filter(user_id=subject_id)
        found = {read.pk: read for read in reads}
        for position, value in enumerate(citation_ids):
            read_id, index = _parse(value, f"citation_ids[{position}]")
            read = found.get(read_id)
            if read is None or not 0 <= index < len(read.memory_ids):
                raise CitationError(f"citation_ids[{position}]", "no such citation")
        memory_ids: list[str] = []
        for read_id, indexes in wanted.items():
            read = found[read_id]
            fresh = sorted(indexes - set(read.used))
            repeated += len(indexes) - len(fresh)
            if fresh:
                read.used = sorted({*read.used, *fresh})
                read.save(update_fields=["used"])
                memory_ids += [read.memory_ids[i] for i in fresh]
        for memory_id in memory_ids:
            recorded += Memory.objects.filter(tenant_id=tenant_id, pk=memory_id).update(
                cited_count=F("cited_count") + 1, last_cited_at=now
            )
        subjects = sorted({found[r].user_id for r in wanted})
        audit_record(
            tenant_id=tenant_id,
            event=Event.MEMORY_READ,
            actor=actor,
            subject_id=subjects[0] if len(subjects) == 1 else "",
            reason_code="used_in_answer",
            details={"memory_ids": memory_ids, "count": recorded, "repeated": repeated},
        )
    return UsedResult(recorded=recorded, repeated=repeated)
