"""Pending confirmations: what an agent wants to remember about the person, why, and from which message."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from memories.access import Caller
from memories.selectors import confirmation_list_pending_for_subject
from memories.services.confirmations import ConfirmationError, confirmation_accept, confirmation_decline
from mymemories.views._base import own_confirmation, person_required


@require_GET
@person_required
def inbox_view(request: HttpRequest, person: Caller) -> HttpResponse:
    pending = list(confirmation_list_pending_for_subject(tenant_id=person.tenant_id, user_id=person.subject_id or ""))
    return render(request, "memories/inbox.html", {"confirmations": pending, "nav": "inbox"})


@require_POST
@person_required
def confirmation_accept_view(request: HttpRequest, person: Caller, confirmation_id: str) -> HttpResponse:
    try:
        confirmation_accept(confirmation=own_confirmation(person, confirmation_id), actor=person.actor, by_agent=False)
    except ConfirmationError:
        messages.error(request, _("This request was already settled or has expired."))
    else:
        messages.success(request, _("Accepted. Agents may use this memory now."))
    return redirect("memory-inbox")


@require_POST
@person_required
def confirmation_decline_view(request: HttpRequest, person: Caller, confirmation_id: str) -> HttpResponse:
    try:
        confirmation_decline(confirmation=own_confirmation(person, confirmation_id), actor=person.actor)
    except ConfirmationError:
        messages.error(request, _("This request was already settled or has expired."))
    else:
        messages.success(request, _("Declined. It won't be remembered."))
    return redirect("memory-inbox")
