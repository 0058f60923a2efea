"""The §17.3 metrics, computed from the audit log: it records every write decision, detection, read
and injection, so the counters need no second bookkeeping that could drift from it.

Per bucket (hour or day, UTC) of a tenant's log:

- writes by decision: one ``memory_write_requested`` per pipeline decision — no memory id: reject;
  ``requires_confirmation``: ask_confirmation; else save (by reason code over the whole range);
- sensitive detections: ``memory_candidate_detected`` at high or restricted sensitivity (restricted:
  reason ``restricted_data``), and their entity types;
- conflicts (``memory_conflict_detected``), cross-scope reads (``cross_scope_read``);
- context requests and tokens: ``memory_injected`` and its ``details.token_count``;
- stale uses: an injected memory that, at that point of the chain, was not active (its last status
  event before the injection said expired, deleted, archived, paused, pending or declined) or whose
  ``expires_at`` had passed. The read path is built never to do this; the count must stay 0, and this
  check is independent of the read path's own filter, so it would catch a regression there.

Every query is filtered by tenant and time range (the ``audit_time`` / ``audit_event_time`` indexes)
and grouped in the database; only the stale check reads rows, bounded by ``STALE_SCAN_LIMIT``.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any
from uuid import UUID

from django.db.models import Count, IntegerField, Max, Q, QuerySet, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Trunc

from audit.events import Event
from audit.models import AuditEvent
from governance.alerting import Counts
from memories.models import Memory

STALE_SCAN_LIMIT = 20_000
ENTITY_SCAN_LIMIT = 20_000
SENSITIVE_LEVELS = ("high", "restricted")

# What each status event says about a memory from that point of the chain on.
_ACTIVATES = frozenset({Event.MEMORY_WRITE_APPROVED, Event.MEMORY_RESUMED, Event.CONFIRMATION_ACCEPTED})
_DEACTIVATES = frozenset(
    {
        Event.MEMORY_EXPIRED,
        Event.MEMORY_DELETED,
        Event.MEMORY_ARCHIVED,
        Event.MEMORY_PAUSED,
        Event.MEMORY_PURGED,
        Event.CONFIRMATION_DECLINED,
    }
)
_STATE_EVENTS = [e.value for e in (*_ACTIVATES, *_DEACTIVATES, Event.MEMORY_WRITE_REQUESTED)]


class Bucket(StrEnum):
    HOUR = "hour"
    DAY = "day"

    @property
    def step(self) -> timedelta:
        return timedelta(hours=1) if self is Bucket.HOUR else timedelta(days=1)

    def floor(self, moment: datetime) -> datetime:
        moment = moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
        return moment if self is Bucket.HOUR else moment.replace(hour=0)


@dataclass
class AuditMetrics:
    start: datetime
    end: datetime
    bucket: Bucket
    buckets: dict[datetime, Counts]
    totals: Counts
    by_reason: list[tuple[str, str, int]] = field(default_factory=list)  # (decision, reason_code, count)
    entity_types: list[tuple[str, int]] = field(default_factory=list)
    stale_scanned: int = 0
    stale_capped: bool = False


def _events(tenant_id: int, start: datetime, end: datetime, *events: str) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(tenant_id=tenant_id, created_at__gte=start, created_at__lt=end, event__in=events)


def _grouped(qs: QuerySet[AuditEvent], bucket: Bucket | None, *extra: str) -> QuerySet[Any]:
    if bucket is None:
        return qs.values(*extra) if extra else qs.values("tenant_id")
    return qs.annotate(b=Trunc("created_at", bucket.value, tzinfo=UTC)).values("b", *extra)


def _token_count() -> Cast:
    return Cast(KeyTextTransform("token_count", "details"), IntegerField())


def _normalize(moment: datetime) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def window_counts(
    *, tenant_id: int, start: datetime, end: datetime, bucket: Bucket | None = None, stale_limit: int = STALE_SCAN_LIMIT
) -> tuple[dict[datetime | None, Counts], int, bool]:
    """Counters grouped by bucket start (one ``None`` key when ``bucket`` is None), stale rows scanned, capped."""
    found: dict[datetime | None, Counts] = {}

    def at(row: dict[str, Any]) -> Counts:
        key = _normalize(row["b"]) if bucket is not None else None
        return found.setdefault(key, Counts())

    writes = _grouped(_events(tenant_id, start, end, Event.MEMORY_WRITE_REQUESTED), bucket).annotate(
        n=Count("id"),
        rejected=Count("id", filter=Q(memory_id__isnull=True)),
        asked=Count("id", filter=Q(requires_confirmation=True, memory_id__isnull=False)),
    )
    for row in writes:
        counts = at(row)
        counts.writes += row["n"]
        counts.rejected += row["rejected"]
        counts.asked += row["asked"]
        counts.saved += row["n"] - row["rejected"] - row["asked"]
    sensitive = _grouped(
        _events(tenant_id, start, end, Event.MEMORY_CANDIDATE_DETECTED).filter(sensitivity__in=SENSITIVE_LEVELS), bucket
    ).annotate(n=Count("id"), restricted=Count("id", filter=Q(sensitivity="restricted")))
    for row in sensitive:
        at(row).sensitive += row["n"]
        at(row).restricted += row["restricted"]
    others = _grouped(
        _events(tenant_id, start, end, Event.MEMORY_CONFLICT_DETECTED, Event.CROSS_SCOPE_READ), bucket, "event"
    ).annotate(n=Count("id"))
    for row in others:
        if row["event"] == Event.MEMORY_CONFLICT_DETECTED:
            at(row).conflicts += row["n"]
        else:
            at(row).cross_scope += row["n"]
    injected = _grouped(_events(tenant_id, start, end, Event.MEMORY_INJECTED), bucket).annotate(
        n=Count("id"), tokens=Sum(_token_count()), tokens_max=Max(_token_count())
    )
    for row in injected:
        counts = at(row)
        counts.requests += row["n"]
        counts.tokens += row["tokens"] or 0
        counts.tokens_max = max(counts.tokens_max, row["tokens_max"] or 0)
    stale, scanned, capped = stale_uses(tenant_id=tenant_id, start=start, end=end, limit=stale_limit)
    for moment in stale:
        key = bucket.floor(moment) if bucket is not None else None
        found.setdefault(key, Counts()).stale += 1
    return found, scanned, capped


def _id_key(value: object) -> str:
    """One spelling per memory id (details hold strings; the column holds UUIDs)."""
    try:
        return str(UUID(str(value)))
    except ValueError:
        return ""


def stale_uses(
    *, tenant_id: int, start: datetime, end: datetime, limit: int = STALE_SCAN_LIMIT
) -> tuple[list[datetime], int, bool]:
    """When a memory was injected while not usable: the times of such uses, rows scanned, whether capped.

    The newest ``limit`` injections of the range are checked (a bound on the page's cost).
    """
    rows = list(
        _events(tenant_id, start, end, Event.MEMORY_INJECTED)
        .order_by("-seq")
        .values_list("seq", "created_at", "details")[: limit + 1]
    )
    capped = len(rows) > limit
    rows = rows[:limit]
    uses = [
        (seq, created, key)
        for seq, created, details in rows
        for key in map(_id_key, (details or {}).get("memory_ids", []))
        if key
    ]
    ids = sorted({mid for _, _, mid in uses})
    if not ids:
        return [], len(rows), capped
    expires: dict[str, datetime | None] = {}
    history: dict[str, tuple[list[int], list[bool]]] = {}
    for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
        for pk, expires_at in Memory.objects.filter(tenant_id=tenant_id, pk__in=chunk).values_list("id", "expires_at"):
            expires[_id_key(pk)] = expires_at
        states = (
            AuditEvent.objects.filter(tenant_id=tenant_id, memory_id__in=chunk, event__in=_STATE_EVENTS)
            .order_by("seq")
            .values_list("memory_id", "seq", "event", "requires_confirmation")
        )
        for memory_id, seq, event, requires_confirmation in states:
            if event == Event.MEMORY_WRITE_REQUESTED:
                if not requires_confirmation:
                    continue  # a save: the approved event right after it says active
                usable = False  # stored as pending
            else:
                usable = event in _ACTIVATES
            seqs, flags = history.setdefault(_id_key(memory_id), ([], []))
            seqs.append(seq)
            flags.append(usable)
    stale = []
    for seq, created, mid in uses:
        expires_at = expires.get(mid)
        if expires_at is not None and expires_at <= created:
            stale.append(created)
            continue
        seqs, flags = history.get(mid, ([], []))
        position = bisect.bisect_left(seqs, seq)
        if position and not flags[position - 1]:
            stale.append(created)
    return stale, len(rows), capped


def audit_metrics(*, tenant_id: int, start: datetime, end: datetime, bucket: Bucket) -> AuditMetrics:
    """Every chart's series for [start, end), one Counts per bucket (empty buckets included)."""
    start, end = bucket.floor(start), end
    found, scanned, capped = window_counts(tenant_id=tenant_id, start=start, end=end, bucket=bucket)
    buckets: dict[datetime, Counts] = {}
    moment = start
    while moment < end:
        buckets[moment] = found.get(moment, Counts())
        moment += bucket.step
    totals = Counts()
    for counts in buckets.values():
        totals.add(counts)
    return AuditMetrics(
        start=start,
        end=end,
        bucket=bucket,
        buckets=buckets,
        totals=totals,
        by_reason=_by_reason(tenant_id, start, end),
        entity_types=_entity_types(tenant_id, start, end),
        stale_scanned=scanned,
        stale_capped=capped,
    )


def _by_reason(tenant_id: int, start: datetime, end: datetime) -> list[tuple[str, str, int]]:
    rows = (
        _events(tenant_id, start, end, Event.MEMORY_WRITE_REQUESTED)
        .values("reason_code")
        .annotate(
            n=Count("id"),
            rejected=Count("id", filter=Q(memory_id__isnull=True)),
            asked=Count("id", filter=Q(requires_confirmation=True, memory_id__isnull=False)),
        )
    )
    result = []
    for row in rows:
        saved = row["n"] - row["rejected"] - row["asked"]
        for decision, count in (("save", saved), ("ask_confirmation", row["asked"]), ("reject", row["rejected"])):
            if count:
                result.append((decision, row["reason_code"] or "-", count))
    result.sort(key=lambda item: (-item[2], item[0], item[1]))
    return result


def _entity_types(tenant_id: int, start: datetime, end: datetime) -> list[tuple[str, int]]:
    counter: Counter[str] = Counter()
    rows = (
        _events(tenant_id, start, end, Event.MEMORY_CANDIDATE_DETECTED)
        .filter(sensitivity__in=SENSITIVE_LEVELS)
        .values_list("entity_types", flat=True)[:ENTITY_SCAN_LIMIT]
    )
    for entity_types in rows:
        counter.update(entity_types or [])
    return counter.most_common()
