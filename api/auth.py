"""Agent authentication for the API: ``Authorization: Bearer <agent key>``, with failed keys throttled.

An address that sends ``MEMGOV_AGENT_AUTH_FAILURE_LIMIT`` bad keys within
``MEMGOV_AGENT_AUTH_WINDOW_SECONDS`` gets 429 with Retry-After — for any key, the right one included —
until the oldest failure leaves the window. Counters live in Django's cache (``MEMGOV_CACHE_URL``: set it
to Redis when several processes serve the API, or each counts alone). The throttling is audited in the
tenant of the agent whose key prefix was tried (governance/services/security.py).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from governance.agents import AgentPrincipal, client_for_key
from governance.services.security import agent_auth_throttle_record


def _failures_key(request: Request) -> str:
    return f"memgov:agent-auth-failures:{request.META.get('REMOTE_ADDR', '')}"


def _recent_failures(key: str, now: float) -> list[float]:
    window = settings.MEMGOV_AGENT_AUTH_WINDOW_SECONDS
    return [t for t in cache.get(key, []) if t > now - window]


def _refuse_if_throttled(request: Request, now: float) -> None:
    failures = _recent_failures(_failures_key(request), now)
    if len(failures) >= settings.MEMGOV_AGENT_AUTH_FAILURE_LIMIT:
        wait = max(1.0, failures[0] + settings.MEMGOV_AGENT_AUTH_WINDOW_SECONDS - now)
        raise exceptions.Throttled(wait=wait, detail=str(_("Too many failed agent keys from this address.")))


def _count_failure(request: Request, key_text: str, now: float) -> None:
    cache_key = _failures_key(request)
    failures = [*_recent_failures(cache_key, now), now]
    cache.set(cache_key, failures, timeout=settings.MEMGOV_AGENT_AUTH_WINDOW_SECONDS)
    if len(failures) == settings.MEMGOV_AGENT_AUTH_FAILURE_LIMIT:
        parts = key_text.split("_", 2)
        if len(parts) == 3 and parts[1].isalnum() and len(parts[1]) <= 32:
            agent_auth_throttle_record(key_prefix=parts[1])


class AgentKeyAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[AgentPrincipal, None] | None:
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        now = time.time()
        _refuse_if_throttled(request, now)
        scheme, _sep, key = header.partition(" ")
        if scheme != self.keyword or not key.strip():
            _count_failure(request, "", now)
            raise exceptions.AuthenticationFailed(_("Use 'Authorization: Bearer <agent key>'."))
        client = client_for_key(key.strip())
        if client is None:
            _count_failure(request, key.strip(), now)
            raise exceptions.AuthenticationFailed(_("Unknown or revoked agent key."))
        return AgentPrincipal(client), None

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
