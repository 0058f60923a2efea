"""Liveness and readiness probes: /readyz answers 200 only when the database and the broker are reachable."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

BROKER_TIMEOUT_SECONDS = 2.0


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        return f"error: {type(exc).__name__}"
    return "ok"


def _broker() -> str:
    """Connect to the broker the way a producer would (one try, a short timeout)."""
    from config.celery import EMBEDDED_BROKER_URL, app, embedded_broker_options

    url = settings.CELERY_BROKER_URL or EMBEDDED_BROKER_URL
    options = embedded_broker_options(Path(settings.VAR_DIR)) if url.startswith("filesystem://") else {}
    try:
        with app.connection_for_write(url, transport_options=options, connect_timeout=BROKER_TIMEOUT_SECONDS) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as exc:
        return f"error: {type(exc).__name__}"
    return "ok"


def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "broker": _broker()}
    ready = all(value == "ok" for value in checks.values())
    response = JsonResponse(
        {"status": "ready" if ready else "not ready", "checks": checks}, status=200 if ready else 503
    )
    if not ready:
        response["Retry-After"] = "5"
    return response
