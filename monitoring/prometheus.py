"""``/metrics``: Prometheus text for the scraper — the process's own counters plus gauges read from the
database on every scrape.

Why gauges from the database: writes, reads and jobs run in many web and worker processes; counters
kept in each process's memory would each see a slice. The database (the audit log, which records
everything these count) is the one place that sees all of it. Each scrape runs a few indexed queries
per tenant over the last hour (the same counters as the console's charts) plus O(1) lookups; the
stale-use check reads at most ``STALE_SCRAPE_LIMIT`` injections.

Also in the output: everything registered in prometheus_client's default registry, e.g. the
lifecycle jobs' ``memgov_lifecycle_*`` counters (per process: the worker's own, when scraped there).

Who may scrape (deny by default, and a refusal is the missing page's 404):

- ``MEMGOV_METRICS_TOKEN`` set: requests with ``Authorization: Bearer <token>``, from anywhere;
- unset: only direct connections from this machine (loopback peer and no ``X-Forwarded-For``, so a
  reverse proxy on the same host doesn't open it to the world).

The ``tenant`` label is the tenant's numeric id; its slug (a customer's name, often) only with
``MEMGOV_METRICS_TENANT_NAMES=1``.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric

import memories.lifecycle.metrics  # noqa: F401  (registers the lifecycle counters in the default registry)
from audit.models import AuditChainHead
from governance.alerting import AlertKind
from governance.models import AgentClient, Tenant
from governance.selectors.alerts import alert_counts_since
from governance.vocabulary import Status
from memories.models import Confirmation, Memory
from memories.rule_selectors import rule_filter
from monitoring.metrics import window_counts

STALE_SCRAPE_LIMIT = 2000
WINDOW = timedelta(hours=1)


def metrics_access_allowed(request: HttpRequest) -> bool:
    token = getattr(settings, "MEMGOV_METRICS_TOKEN", "")
    if token:
        given = request.headers.get("Authorization", "")
        return given.startswith("Bearer ") and hmac.compare_digest(given[len("Bearer ") :].encode(), token.encode())
    if request.headers.get("X-Forwarded-For"):
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


class DatabaseCollector:
    """Per-tenant gauges computed at scrape time (see the module docstring)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def collect(self) -> Iterator[Metric]:
        tenants = list(Tenant.objects.order_by("slug").values_list("pk", "slug"))
        if not settings.MEMGOV_METRICS_TENANT_NAMES:  # the tenant's id, not its name, unless asked for
            tenants = [(pk, str(pk)) for pk, _ in tenants]
        slug = dict(tenants)

        def gauge(name: str, doc: str, labels: tuple[str, ...] = ("tenant",)) -> GaugeMetricFamily:
            return GaugeMetricFamily(name, doc, labels=list(labels))

        chain = gauge("memgov_audit_events", "Audit events recorded (the length of the tenant's hash chain).")
        for tenant_id, seq in AuditChainHead.objects.values_list("tenant_id", "seq"):
            if tenant_id in slug:
                chain.add_metric([slug[tenant_id]], seq)
        yield chain

        pending = gauge("memgov_rules_pending", "Shared rules waiting for an admin's approval.")
        counts = dict(
            Confirmation.objects.filter(confirm_by="admin", state=Confirmation.State.PENDING, expires_at__gt=self.now)
            .values("tenant_id")
            .annotate(n=Count("id"))
            .values_list("tenant_id", "n")
        )
        in_force = gauge("memgov_rules_in_force", "Approved shared rules the read path may inject.")
        active = dict(
            Memory.objects.filter(rule_filter(), status=Status.ACTIVE)
            .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=self.now))
            .values("tenant_id")
            .annotate(n=Count("id"))
            .values_list("tenant_id", "n")
        )
        keys = gauge("memgov_agent_keys_active", "Agent keys that are not revoked.")
        key_counts = dict(
            AgentClient.objects.filter(revoked_at__isnull=True)
            .values("tenant_id")
            .annotate(n=Count("id"))
            .values_list("tenant_id", "n")
        )
        for tenant_id, name in tenants:
            pending.add_metric([name], counts.get(tenant_id, 0))
            in_force.add_metric([name], active.get(tenant_id, 0))
            keys.add_metric([name], key_counts.get(tenant_id, 0))
        yield from (pending, in_force, keys)

        yield from self._last_hour(tenants)

        alerts = gauge(
            "memgov_alerts_raised_24h",
            "Alerts raised in windows that started in the last 24 hours.",
            ("tenant", "alert"),
        )
        raised = alert_counts_since(since=self.now - timedelta(hours=24))
        for tenant_id, name in tenants:
            for kind in AlertKind:
                alerts.add_metric([name, kind.value], raised.get((tenant_id, kind.value), 0))
        yield alerts

    def _last_hour(self, tenants: list[tuple[int, str]]) -> Iterator[Metric]:
        writes = GaugeMetricFamily(
            "memgov_writes_last_hour", "Write decisions in the last hour, by decision.", labels=["tenant", "decision"]
        )
        sensitive = GaugeMetricFamily(
            "memgov_sensitive_detections_last_hour",
            "Candidates detected at high or restricted sensitivity in the last hour.",
            labels=["tenant", "sensitivity"],
        )
        simple = {
            "conflicts": GaugeMetricFamily(
                "memgov_conflicts_last_hour", "memory_conflict_detected events in the last hour.", labels=["tenant"]
            ),
            "cross_scope": GaugeMetricFamily(
                "memgov_cross_scope_reads_last_hour", "Refused cross-scope reads in the last hour.", labels=["tenant"]
            ),
            "stale": GaugeMetricFamily(
                "memgov_stale_memory_uses_last_hour",
                "Injected memories that were not usable (must be 0).",
                labels=["tenant"],
            ),
            "requests": GaugeMetricFamily(
                "memgov_context_requests_last_hour",
                "Context requests (injections) in the last hour.",
                labels=["tenant"],
            ),
            "tokens": GaugeMetricFamily(
                "memgov_context_tokens_last_hour", "Context tokens injected in the last hour.", labels=["tenant"]
            ),
        }
        for tenant_id, name in tenants:
            found, _, _ = window_counts(
                tenant_id=tenant_id, start=self.now - WINDOW, end=self.now, stale_limit=STALE_SCRAPE_LIMIT
            )
            counts = found.get(None)
            saved = asked = rejected = high = restricted = 0
            if counts is not None:
                saved, asked, rejected = counts.saved, counts.asked, counts.rejected
                high, restricted = counts.sensitive - counts.restricted, counts.restricted
            for decision, value in (("save", saved), ("ask_confirmation", asked), ("reject", rejected)):
                writes.add_metric([name, decision], value)
            sensitive.add_metric([name, "high"], high)
            sensitive.add_metric([name, "restricted"], restricted)
            for key, family in simple.items():
                family.add_metric([name], getattr(counts, key) if counts is not None else 0)
        yield writes
        yield sensitive
        yield from simple.values()


@require_safe
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not metrics_access_allowed(request):
        raise Http404("no such page")
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector(timezone.now()))
    body = generate_latest(REGISTRY) + generate_latest(registry)
    response = HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
