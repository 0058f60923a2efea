"""``manage.py evaluate_alerts [--tenant SLUG] [--at ISO-TIME]``: raise the §17.3 alerts of the last
closed window. Idempotent: run it as often as you like (cron, Celery beat); each alert is raised once
per window. Prints one line per alert raised now, then a summary.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from governance.models import Tenant
from monitoring.alerts import alerts_evaluate_all


class Command(BaseCommand):
    help = "Raise the alerts of the last closed window (once per window; safe to repeat)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", default="", help="Only this tenant (slug).")
        parser.add_argument("--at", default="", help="Evaluate as of this time (ISO 8601, UTC if no offset).")

    def handle(self, *args: object, **options: str) -> None:
        now = timezone.now()
        if options["at"]:
            try:
                now = datetime.fromisoformat(options["at"])
            except ValueError as exc:
                raise CommandError("--at: use an ISO 8601 time, e.g. 2026-03-01T10:00") from exc
            if now.tzinfo is None:
                now = now.replace(tzinfo=UTC)
        if options["tenant"] and not Tenant.objects.filter(slug=options["tenant"]).exists():
            raise CommandError(f"no tenant {options['tenant']!r}")
        raised = alerts_evaluate_all(now=now, tenant_slug=options["tenant"])
        total = 0
        for slug, alerts in raised.items():
            for alert in alerts:
                total += 1
                self.stdout.write(
                    f"{slug}\t{alert.kind}\t{alert.window_start:%Y-%m-%dT%H:%MZ}\t"
                    f"observed={alert.observed:g}\tthreshold={alert.threshold:g}"
                )
        self.stdout.write(f"{total} alert(s) raised for {len(raised)} tenant(s).")
