"""Metrics and alerts for tenant admins: §17.3 counters over time, drawn on the server as SVG, and the
alerts raised (recorded by ``alerts_evaluate``; this page only reads, it never raises one).
"""

from __future__ import annotations

from datetime import timedelta

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from console.access import ADMIN_PERM, ConsoleAccess, console_page
from console.charts import Chart, Series, bucket_labels, chart_build
from console.nav import console_render
from governance.alerting import AlertKind
from governance.selectors.alerts import alerts_recent
from monitoring.alerts import alert_thresholds_for_tenant
from monitoring.metrics import AuditMetrics, Bucket, audit_metrics

# ?range=…: how far back, and the bucket size.
RANGES = {"48h": (Bucket.HOUR, 48), "7d": (Bucket.HOUR, 24 * 7), "30d": (Bucket.DAY, 30)}
DEFAULT_RANGE = "48h"
ALERTS_SHOWN_DAYS = 7


def alert_labels() -> dict[str, str]:
    return {
        AlertKind.WRITE_SPIKE: _("Write count spike"),
        AlertKind.REJECT_RATE_DROP: _("Reject rate dropped"),
        AlertKind.SENSITIVE_SPIKE: _("Sensitive detections spike"),
        AlertKind.CROSS_SCOPE_READ: _("Cross-scope read"),
        AlertKind.STALE_USE: _("Stale memory used"),
        AlertKind.CONTEXT_TOKEN_GROWTH: _("Context tokens grew"),
    }


def metrics_charts(metrics: AuditMetrics) -> list[Chart]:
    counts = list(metrics.buckets.values())
    labels = bucket_labels(list(metrics.buckets), hourly=metrics.bucket is Bucket.HOUR)

    def values(name: str) -> list[float | None]:
        return [getattr(c, name) for c in counts]

    rate = [None if c.reject_rate is None else round(c.reject_rate * 100, 2) for c in counts]
    avg = [None if c.tokens_avg is None else round(c.tokens_avg, 1) for c in counts]
    peak = [c.tokens_max if c.requests else None for c in counts]
    # (key, title, unit, kind, [(series label, colour class, values)]), in the page's order.
    charts = [
        (
            "writes",
            _("Writes by decision"),
            "",
            "bars",
            [
                (_("saved"), "chart--a", values("saved")),
                (_("asked to confirm"), "chart--b", values("asked")),
                (_("rejected"), "chart--c", values("rejected")),
            ],
        ),
        ("reject-rate", _("Reject rate"), "%", "line", [(_("rejected / writes, %"), "chart--c", rate)]),
        (
            "sensitive",
            _("Sensitive detections"),
            "",
            "bars",
            [
                (_("high"), "chart--b", [c.sensitive - c.restricted for c in counts]),
                (_("restricted"), "chart--c", values("restricted")),
            ],
        ),
        ("conflicts", _("Conflicts detected"), "", "bars", [(_("conflicts"), "chart--d", values("conflicts"))]),
        ("cross-scope", _("Cross-scope reads"), "", "bars", [(_("refused reads"), "chart--c", values("cross_scope"))]),
        ("stale", _("Stale memories used (must stay 0)"), "", "bars", [(_("stale uses"), "chart--c", values("stale"))]),
        (
            "tokens",
            _("Context tokens per request"),
            "",
            "line",
            [(_("mean"), "chart--a", avg), (_("largest"), "chart--e", peak)],
        ),
    ]
    return [
        chart_build(key=key, title=title, unit=unit, kind=kind, labels=labels, series=[Series(*s) for s in series])
        for key, title, unit, kind, series in charts
    ]


@console_page(ADMIN_PERM)
@require_safe
def metrics_page(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    chosen = request.GET.get("range") or DEFAULT_RANGE
    range_error = ""
    if chosen not in RANGES:  # say so, and show the default range below the message
        range_error = _("Choose a range: %(ranges)s.") % {"ranges": ", ".join(RANGES)}
        chosen = DEFAULT_RANGE
    bucket, count = RANGES[chosen]
    now = timezone.now()
    start = bucket.floor(now) - bucket.step * (count - 1)
    metrics = audit_metrics(tenant_id=access.tenant.pk, start=start, end=now, bucket=bucket)
    thresholds, policy_version = alert_thresholds_for_tenant(tenant_id=access.tenant.pk)
    labels = alert_labels()
    alerts = [
        (alert, labels.get(alert.kind, alert.kind))
        for alert in alerts_recent(tenant_id=access.tenant.pk, since=now - timedelta(days=ALERTS_SHOWN_DAYS))
    ]
    context = {
        "console_page": "metrics",
        "range": chosen,
        "range_error": range_error,
        "ranges": list(RANGES),
        "metrics": metrics,
        "charts": metrics_charts(metrics),
        "alerts": alerts,
        "alert_days": ALERTS_SHOWN_DAYS,
        "thresholds": thresholds,
        "policy_version": policy_version,
    }
    return console_render(request, access, "console/metrics.html", context, 400 if range_error else 200)
