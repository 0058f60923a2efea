"""What a locked-out sign-in gets (django-axes calls this): 429 with Retry-After — JSON for a client that
asks for it, a short page for a browser. The lockout is audited by governance/services/security.py."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def lockout_seconds() -> int:
    cool_off = get_cool_off()
    return max(1, int(cool_off.total_seconds())) if cool_off else 60


def lockout_response(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    wait = lockout_seconds()
    accept = request.headers.get("Accept", "")
    if "json" in accept and "html" not in accept:
        response: HttpResponse = JsonResponse(
            {"error": "too_many_attempts", "detail": f"Too many failed sign-ins; try again in {wait} seconds."},
            status=429,
        )
    else:
        response = render(request, "registration/locked_out.html", {"wait_minutes": max(1, wait // 60)}, status=429)
    response["Retry-After"] = str(wait)
    return response
