"""Reads of invitations: a tenant's open ones (for its admins), an account's open ones (for its owner)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from governance.models import Invitation


def _open() -> QuerySet[Invitation]:
    return Invitation.objects.filter(state=Invitation.State.PENDING, expires_at__gt=timezone.now())


def invitations_open_for_tenant(*, tenant_id: int) -> QuerySet[Invitation]:
    """Pending, unexpired invitations of the tenant, newest first."""
    return _open().filter(tenant_id=tenant_id).order_by("-created_at")


def invitations_open_for_account(*, username: str) -> QuerySet[Invitation]:
    """Pending, unexpired invitations addressed to this username, with their tenant, newest first."""
    return _open().filter(username=username).select_related("tenant").order_by("-created_at")


def invitation_open_for_account(*, username: str, invitation_id: object) -> Invitation | None:
    """One of the account's open invitations; None for anyone else's, a settled one, or a missing one."""
    return invitations_open_for_account(username=username).filter(pk=invitation_id).first()


def invitation_open_for_tenant(*, tenant_id: int, invitation_id: object) -> Invitation | None:
    return invitations_open_for_tenant(tenant_id=tenant_id).filter(pk=invitation_id).first()
