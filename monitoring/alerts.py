"""Raise §17.3 alerts: once per (tenant, alert kind, window), recorded as a row and an ``alert_raised`` event.

``alerts_evaluate(tenant_id=…, now=…)`` judges the last *closed* window before ``now`` against the
windows before it, with the thresholds of the tenant's policy in force. It is idempotent: running it
again for the same window (every few minutes from Celery beat, from ``manage.py evaluate_alerts``, or
twice at once) raises nothing new — the unique (tenant, kind, window_start) row decides, inside the
same transaction as its audit event. Pages only read what was raised.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction

from audit.events import Event
from audit.services import audit_record
from governance.alerting import AlertKind, AlertThresholds, Firing, alert_thresholds_from_document, alerts_judge
from governance.models import Alert, PolicyVersion, Tenant
from governance.policy import PolicyDocumentError, default_policy_document
from monitoring.metrics import Bucket, Counts, window_counts

ACTOR = "system:alerts"


def alert_thresholds_for_tenant(*, tenant_id: int) -> tuple[AlertThresholds, int]:
    """The thresholds of the policy in force and its version (defaults if the document has none)."""
    row = PolicyVersion.objects.filter(tenant_id=tenant_id).order_by("-version").first()
    document, version = (row.document, row.version) if row else (default_policy_document(), 0)
    try:
        return alert_thresholds_from_document(document), version
    except PolicyDocumentError:
        # A stored document is validated when saved; one written around the console falls back
        # to the defaults rather than silencing every alert.
        return AlertThresholds(), version


def alert_window(*, now: datetime, hours: int) -> tuple[datetime, datetime]:
    """The last closed window before ``now``: windows of ``hours`` hours aligned on UTC midnight."""
    hour = Bucket.HOUR.floor(now)
    end = hour - timedelta(hours=hour.hour % hours)
    return end - timedelta(hours=hours), end


def _windows(tenant_id: int, *, start: datetime, hours: int, count: int) -> list[Counts]:
    """``count`` consecutive windows from ``start``, each the sum of its hours."""
    end = start + timedelta(hours=hours * count)
    by_hour, _, _ = window_counts(tenant_id=tenant_id, start=start, end=end, bucket=Bucket.HOUR)
    windows = [Counts() for _ in range(count)]
    for moment, counts in by_hour.items():
        if moment is None:
            continue
        index = int((moment - start).total_seconds() // 3600) // hours
        if 0 <= index < count:
            windows[index].add(counts)
    return windows


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.4g}"


def _raise(tenant_id: int, firing: Firing, *, start: datetime, end: datetime, policy_version: int) -> Alert | None:
    try:
        with transaction.atomic():
            alert = Alert.objects.create(
                tenant_id=tenant_id,
                kind=firing.kind.value,
                window_start=start,
                window_end=end,
                observed=firing.observed,
                threshold=firing.threshold,
                baseline=firing.baseline,
            )
            audit_record(
                tenant_id=tenant_id,
                event=Event.ALERT_RAISED,
                actor=ACTOR,
                policy_version=policy_version,
                reason_code=firing.kind.value,
                details={
                    "alert": firing.kind.value,
                    "alert_id": alert.pk,
                    "window_start": int(start.timestamp()),
                    "window_hours": int((end - start).total_seconds() // 3600),
                    "observed": _number(firing.observed),
                    "threshold": _number(firing.threshold),
                    "baseline": _number(firing.baseline),
                },
            )
            return alert
    except IntegrityError:
        return None  # raised meanwhile by a concurrent run: once is enough


def alerts_evaluate(*, tenant_id: int, now: datetime) -> list[Alert]:
    """Judge the last closed window and record each new alert; returns the ones raised by this call."""
    thresholds, policy_version = alert_thresholds_for_tenant(tenant_id=tenant_id)
    hours = thresholds.window_hours
    start, end = alert_window(now=now.astimezone(UTC), hours=hours)
    existing = set(Alert.objects.filter(tenant_id=tenant_id, window_start=start).values_list("kind", flat=True))
    if existing >= {kind.value for kind in AlertKind}:
        return []  # every kind already raised for this window: nothing to count
    first = start - timedelta(hours=hours * thresholds.baseline_windows)
    windows = _windows(tenant_id, start=first, hours=hours, count=thresholds.baseline_windows + 1)
    raised = []
    for firing in alerts_judge(windows[-1], windows[:-1], thresholds):
        if firing.kind.value in existing:
            continue
        alert = _raise(tenant_id, firing, start=start, end=end, policy_version=policy_version)
        if alert is not None:
            raised.append(alert)
    return raised


def alerts_evaluate_all(*, now: datetime, tenant_slug: str = "") -> dict[str, list[Alert]]:
    """Every tenant's (or one's) alerts for the last closed window, by tenant slug."""
    tenants = Tenant.objects.order_by("pk")
    if tenant_slug:
        tenants = tenants.filter(slug=tenant_slug)
    return {tenant.slug: alerts_evaluate(tenant_id=tenant.pk, now=now) for tenant in tenants}
