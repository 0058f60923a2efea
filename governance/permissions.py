"""Tenant-wide permissions a person holds through django-guardian on their Tenant.

``governance.audit_tenant`` (compliance officers) for the audit log and subject requests,
``governance.administer_tenant`` (tenant admins) for rules, policy, agents and people. The two are
deliberately separate: an admin is not a compliance officer, so the people whose actions the log
records are not the ones who search and export it (separation of duties).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from governance.models import Membership

AUDIT_PERM = "governance.audit_tenant"
ADMIN_PERM = "governance.administer_tenant"
CONSOLE_PERMS = (AUDIT_PERM, ADMIN_PERM)


def console_perms(user: Any) -> tuple[Membership, frozenset[str]] | None:
    """The first of the person's memberships that grants any console permission, and those
    permissions; None for anyone else (an agent, an anonymous visitor, a plain member)."""
    if not isinstance(user, AbstractBaseUser) or not user.is_authenticated:
        return None
    for membership in Membership.objects.select_related("tenant", "user").filter(user=user).order_by("pk"):
        perms = frozenset(perm for perm in CONSOLE_PERMS if user.has_perm(perm, membership.tenant))
        if perms:
            return membership, perms
    return None


def membership_with_perm(user: Any, perm: str) -> Membership | None:
    """The person's membership whose tenant grants ``perm`` (e.g. for the audit export API)."""
    found = console_perms(user)
    return found[0] if found is not None and perm in found[1] else None
