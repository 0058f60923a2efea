"""A person's invitations to join a tenant: accept (they become a member) or decline.

Signed-in is enough (a person with no tenant yet is who these are for). Only invitations addressed
to the signed-in account's username are shown or answered; anyone else's is a 404, like a missing one.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from governance.models import Invitation
from governance.selectors.invitations import invitation_open_for_account, invitations_open_for_account
from governance.services.invitations import invitation_accept, invitation_decline
from governance.services.people import PeopleError


def _own(request: HttpRequest, invitation_id: object) -> Invitation:
    invitation = invitation_open_for_account(username=request.user.get_username(), invitation_id=invitation_id)
    if invitation is None:
        raise Http404("no such invitation")
    return invitation


def _refusal(exc: PeopleError) -> str:
    if exc.code == "has_tenant":
        return _("Your account belongs to another tenant already. Ask its admin to remove you, then accept.")
    if exc.code == "subject_taken":
        return _("Someone in this tenant has the subject id you were invited with. Ask the admin to invite you again.")
    return _("This invitation was already answered, withdrawn or has expired.")


@require_GET
@login_required
def invitations_view(request: HttpRequest) -> HttpResponse:
    invitations = list(invitations_open_for_account(username=request.user.get_username()))
    return render(request, "memories/invitations.html", {"invitations": invitations, "nav": "invitations"})


@require_POST
@login_required
def invitation_accept_view(request: HttpRequest, invitation_id: str) -> HttpResponse:
    invitation = _own(request, invitation_id)
    try:
        invitation_accept(invitation=invitation, user=request.user)
    except PeopleError as exc:
        messages.error(request, _refusal(exc))
        return redirect("invitations")
    tenant = invitation.tenant.name or invitation.tenant.slug
    messages.success(request, _("Welcome to %(tenant)s.") % {"tenant": tenant})
    return redirect("my-memories")


@require_POST
@login_required
def invitation_decline_view(request: HttpRequest, invitation_id: str) -> HttpResponse:
    invitation = _own(request, invitation_id)
    try:
        invitation_decline(invitation=invitation, user=request.user)
    except PeopleError as exc:
        messages.error(request, _refusal(exc))
    else:
        messages.success(request, _("Invitation declined."))
    return redirect("invitations")
