"""Brute-force lockouts, recorded in the audit log of the tenant they aimed at.

A sign-in locked out by django-axes (config/lockout.py) and an address throttled after failed agent
keys (api/auth.py) each write one event in the tenant whose person or agent key was tried; a name or key
that belongs to no tenant is throttled all the same, but there is no tenant to tell.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction

from audit.events import Event
from audit.services import audit_record
from governance.models import AgentClient, Membership

ACTOR = "system:auth"


@transaction.atomic
def login_lockout_record(*, username: str) -> bool:
    """Audit a sign-in lockout of this username (in each tenant it belongs to); True if it belongs to one."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        return False
    memberships = list(Membership.objects.filter(user=user))
    for membership in memberships:
        audit_record(
            tenant_id=membership.tenant_id,
            event=Event.LOGIN_LOCKED_OUT,
            actor=ACTOR,
            subject_id=membership.subject_id,
            reason_code="too_many_failed_logins",
        )
    return bool(memberships)


@transaction.atomic
def agent_auth_throttle_record(*, key_prefix: str) -> bool:
    """Audit that failed keys naming this agent's prefix got their address throttled; True if one matched."""
    client = AgentClient.objects.filter(key_prefix=key_prefix).first()
    if client is None:
        return False
    audit_record(
        tenant_id=client.tenant_id,
        event=Event.AGENT_AUTH_THROTTLED,
        actor=ACTOR,
        agent_version=client.name,
        reason_code="too_many_failed_keys",
        details={"key_prefix": key_prefix, "agent_id": client.pk},
    )
    return True


def on_login_locked_out(sender: Any, *, username: str | None = None, **_: Any) -> None:
    """django-axes' ``user_locked_out`` hook (connected in mymemories/apps.py, the sign-in's side): audit
    once per lockout, though it fires again on each attempt while locked."""
    from django.conf import settings

    seconds = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds()))
    if username and cache.add(f"memgov:lockout-audited:{username}", 1, timeout=seconds):
        login_lockout_record(username=username)
