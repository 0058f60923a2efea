"""Celery tasks of the governance app: thin — call the service (beat runs it every few minutes)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from monitoring.alerts import alerts_evaluate_all


@shared_task(
    name="memgov.alerts.evaluate",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=8,
    ignore_result=True,
)
def alerts_evaluate_task() -> dict[str, int]:
    """Raise every tenant's alerts of the last closed window (idempotent per window)."""
    raised = alerts_evaluate_all(now=timezone.now())
    return {slug: len(alerts) for slug, alerts in raised.items()}
