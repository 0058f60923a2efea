"""Citations (seed 000 "usage tracking", "citations"): which injected memories an answer actually used.

Every context read that injects memories gets a ``ContextRead`` row; item *i* of it has the citation id
``<read id>.<i>``. An agent reports the citations its answer used (``POST /api/v1/memories/used``): each
(read, item) counts once — reporting it again changes nothing — and bumps the memory's ``cited_count``
and ``last_cited_at``, which consolidation's top-N and the unused job read. Audited as ``memory_read``
with reason ``used_in_answer`` (ids and counts only).

A use an agent reports about a person who switched that agent off is refused as a whole: nothing is counted,
and the refusal is audited (``memory_read`` with ``subject_blocked_agent``, the read ids only) in the same
transaction, so it shows on the person's agents page like a refused read or write.
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
from governance.pipeline.reasons import ReasonCode
from memories.models import AgentAccess, ContextRead, Memory

MAX_CITATIONS = 100


class CitationError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.message = field, message


class UseRefused(Exception):
    """The person these citations are about switched the reporting agent off (``subject_blocked_agent``)."""

    reason_code = ReasonCode.SUBJECT_BLOCKED_AGENT.value


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
    agent: AgentClient | None = None,
    now: datetime | None = None,
) -> UsedResult:
    """Count the uses these citations report. An unknown id, another tenant's, or (for a person) another
    subject's is the same error: nothing is counted. Raises :class:`UseRefused` (after auditing it) when
    ``agent`` is one a person the citations are about switched off."""
    if not isinstance(citation_ids, list) or not citation_ids:
        raise CitationError("citation_ids", "send a non-empty list of citation ids")
    if len(citation_ids) > MAX_CITATIONS:
        raise CitationError("citation_ids", f"at most {MAX_CITATIONS} at a time")
    wanted: dict[uuid.UUID, set[int]] = defaultdict(set)
    for position, value in enumerate(citation_ids):
        read_id, index = _parse(value, f"citation_ids[{position}]")
        wanted[read_id].add(index)
    now = now or timezone.now()
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
        refused = agent is not None and _refusal_record(tenant_id=tenant_id, actor=actor, agent=agent, reads=found)
        if not refused:
            result = _uses_count(tenant_id=tenant_id, actor=actor, wanted=wanted, found=found, now=now)
    if refused:  # raised once the refusal's audit row is committed
        raise UseRefused("the person switched this agent off")
    return result


def _uses_count(
    *,
    tenant_id: int,
    actor: str,
    wanted: dict[uuid.UUID, set[int]],
    found: dict[uuid.UUID, ContextRead],
    now: datetime,
) -> UsedResult:
    recorded = repeated = 0
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


def _refusal_record(*, tenant_id: int, actor: str, agent: AgentClient, reads: dict[uuid.UUID, ContextRead]) -> bool:
    """Audit one refusal per subject who switched this agent off (the read ids only); True when any did."""
    subjects = {read.user_id for read in reads.values() if read.user_id}
    blocked = set(
        AgentAccess.objects.filter(tenant_id=tenant_id, user_id__in=subjects, agent=agent, blocked=True).values_list(
            "user_id", flat=True
        )
    )
    for user_id in sorted(blocked):
        audit_record(
            tenant_id=tenant_id,
            event=Event.MEMORY_READ,
            actor=actor,
            subject_id=user_id,
            agent_version=agent.name,
            reason_code=ReasonCode.SUBJECT_BLOCKED_AGENT.value,
            details={"read_ids": sorted(str(pk) for pk, read in reads.items() if read.user_id == user_id)},
        )
    return bool(blocked)
