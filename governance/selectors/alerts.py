"""Reads of raised alerts (the rows ``alerts_evaluate`` records) for the console and /metrics."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, QuerySet

from governance.models import Alert


def alerts_recent(*, tenant_id: int, since: datetime, limit: int = 100) -> QuerySet[Alert]:
    """The tenant's alerts whose window started at or after ``since``, newest first."""
    return Alert.objects.filter(tenant_id=tenant_id, window_start__gte=since).order_by("-window_start", "kind")[:limit]


def alert_counts_since(*, since: datetime) -> dict[tuple[int, str], int]:
    """How many alerts of each kind each tenant raised since ``since``: {(tenant_id, kind): n}."""
    rows = Alert.objects.filter(window_start__gte=since).values("tenant_id", "kind").annotate(n=Count("id"))
    return {(row["tenant_id"], row["kind"]): row["n"] for row in rows}
