"""Invitations: how a person joins a tenant. The admin invites a username; its owner accepts or declines.

An admin only ever learns about their own tenant: inviting a username that no account has, or one
that belongs to another tenant, looks exactly like inviting a free one (the invitation waits). The
owner of the account sees it when they sign in, and only their "yes" makes them a member. An account
belongs to one tenant (the pages serve a person through one membership), so a member of another
tenant can't accept until that tenant removes them; they can decline.

Each step is audited in the tenant's chain as ``membership_changed`` with the invitation's id
(never the username: it is free text the person chose).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.models import Invitation, Membership, Tenant
from governance.selectors.invitations import invitations_open_for_tenant
from governance.services.people import PeopleError
from governance.services.tenancy import membership_set

INVITATION_DAYS = 14


def _audit(invitation: Invitation, *, change: str, actor: str) -> None:
    audit_record(
        tenant_id=invitation.tenant_id,
        event=Event.MEMBERSHIP_CHANGED,
        actor=actor,
        subject_id=invitation.subject_id,
        details={"change": change, "role": invitation.role, "invitation": invitation.pk},
    )


@transaction.atomic
def invitation_create(*, tenant: Tenant, username: str, role: str, subject_id: str, acting: Membership) -> Invitation:
    """Invite ``username`` to the tenant. Refusals concern this tenant only (a member, a subject id in use)."""
    subject_id = subject_id or username
    if Membership.objects.filter(tenant=tenant, user__username=username).exists():
        raise PeopleError("already_member", "This person is already in the tenant; change their role instead.")
    taken = Membership.objects.filter(tenant=tenant, subject_id=subject_id).exists()
    if taken or invitations_open_for_tenant(tenant_id=tenant.pk).filter(subject_id=subject_id).exists():
        raise PeopleError("subject_taken", "Another person of this tenant already has that subject id.")
    now = timezone.now()
    # An expired invitation no longer holds the username's place (the one-pending constraint).
    Invitation.objects.filter(
        tenant=tenant, username=username, state=Invitation.State.PENDING, expires_at__lte=now
    ).update(state=Invitation.State.EXPIRED, closed_at=now)
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(
                tenant=tenant,
                username=username,
                role=role,
                subject_id=subject_id,
                invited_by=f"user:{acting.user.get_username()}",
                expires_at=now + timedelta(days=INVITATION_DAYS),
            )
    except IntegrityError:  # one pending invitation per username and tenant
        raise PeopleError("already_invited", "This username has a pending invitation already.") from None
    _audit(invitation, change="invited", actor=invitation.invited_by)
    return invitation


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation, acting: Membership) -> None:
    invitation = _lock_open(invitation)
    _close(invitation, Invitation.State.WITHDRAWN)
    _audit(invitation, change="invitation_withdrawn", actor=f"user:{acting.user.get_username()}")


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """Make the invited account a member, with the role and subject id the admin chose."""
    invitation = _lock_open(invitation)
    actor = f"user:{user.get_username()}"
    # Lock the account: two invitations (two tenants) accepted at once must not both find it free.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    other = Membership.objects.filter(user=user).select_related("tenant").first()
    if other is not None:
        raise PeopleError("has_tenant", f"Your account belongs to {other.tenant.name or other.tenant.slug} already.")
    if Membership.objects.filter(tenant_id=invitation.tenant_id, subject_id=invitation.subject_id).exists():
        raise PeopleError("subject_taken", "Another person of this tenant already has that subject id.")
    _close(invitation, Invitation.State.ACCEPTED)
    _audit(invitation, change="invitation_accepted", actor=actor)
    return membership_set(
        tenant=invitation.tenant, user=user, role=invitation.role, subject_id=invitation.subject_id, actor=actor
    )


@transaction.atomic
def invitation_decline(*, invitation: Invitation, user: AbstractBaseUser) -> None:
    invitation = _lock_open(invitation)
    _close(invitation, Invitation.State.DECLINED)
    _audit(invitation, change="invitation_declined", actor=f"user:{user.get_username()}")


def _lock_open(invitation: Invitation) -> Invitation:
    """The invitation, locked, if it is still open (pending and unexpired); a settled one raises."""
    locked = Invitation.objects.select_for_update().select_related("tenant").get(pk=invitation.pk)
    if locked.state != Invitation.State.PENDING or locked.expires_at <= timezone.now():
        raise PeopleError("invitation_closed", "This invitation was already answered, withdrawn or has expired.")
    return locked


def _close(invitation: Invitation, state: str) -> None:
    invitation.state = state
    invitation.closed_at = timezone.now()
    invitation.save(update_fields=["state", "closed_at"])
