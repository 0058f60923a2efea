"""Reads of the audit log. Every selector takes the tenant: no query spans tenants."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db.models import Q, QuerySet

from audit.models import AuditEvent


def audit_event_search(
    *,
    tenant_id: int,
    event: str = "",
    actor: str = "",
    memory_id: UUID | None = None,
    subject_id: str = "",
    start: datetime | None = None,
    end: datetime | None = None,
) -> QuerySet[AuditEvent]:
    """The tenant's events matching every given filter, newest first; the time range is [start, end).

    ``actor`` matches exactly, or, given without a kind ("alice" rather than "user:alice"), any kind.
    """
    events = AuditEvent.objects.filter(tenant_id=tenant_id)
    if event:
        events = events.filter(event=event)
    if actor and ":" in actor:
        events = events.filter(actor=actor)
    elif actor:
        events = events.filter(Q(actor=actor) | Q(actor__endswith=f":{actor}"))
    if memory_id is not None:
        events = events.filter(memory_id=memory_id)
    if subject_id:
        events = events.filter(subject_id=subject_id)
    if start is not None:
        events = events.filter(created_at__gte=start)
    if end is not None:
        events = events.filter(created_at__lt=end)
    return events.order_by("-seq")


SECURITY_EVENTS = ("login_locked_out", "agent_auth_throttled")


def security_events_recent(*, tenant_id: int, limit: int = 20) -> list[AuditEvent]:
    """The tenant's latest sign-in lockouts and throttled agent keys, newest first (console, agents page)."""
    return list(AuditEvent.objects.filter(tenant_id=tenant_id, event__in=SECURITY_EVENTS).order_by("-seq")[:limit])
