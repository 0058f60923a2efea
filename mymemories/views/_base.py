"""What every "My memories" page shares: the logged-in person, and their memory or 404.

A page only ever works on the person's own subject id, taken from their membership — never from the
request — and a memory or confirmation that is not theirs raises the same 404 as a missing one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from conversations.selectors.sessions import sessions_for_subject
from governance.vocabulary import Status
from memories.access import Caller, membership_for_user, memory_for_caller
from memories.models import Confirmation, Memory
from memories.selectors import confirmation_get_for_subject, session_ids_for_subject

PersonView = Callable[..., HttpResponse]


def person_required(view: PersonView) -> Callable[..., HttpResponse]:
    """Log-in required, and a membership: the view gets the person as a :class:`Caller`."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        membership = membership_for_user(request.user)
        if membership is None:
            return render(request, "memories/no_membership.html", status=403)
        person = Caller(
            tenant_id=membership.tenant_id,
            actor=f"user:{request.user.get_username()}",
            subject_id=membership.subject_id,
            membership=membership,
        )
        return view(request, person, *args, **kwargs)

    return wrapper


def own_memory(person: Caller, memory_id: object) -> Memory:
    """The person's memory. A deleted one is gone for them too: 404, like someone else's."""
    memory = memory_for_caller(person, memory_id)
    if memory.status == Status.DELETED:
        raise Http404("no such memory")
    return memory


def own_confirmation(person: Caller, confirmation_id: object) -> Confirmation:
    confirmation = confirmation_get_for_subject(
        tenant_id=person.tenant_id, user_id=person.subject_id or "", confirmation_id=confirmation_id
    )
    if confirmation is None:
        raise Http404("no such confirmation")
    return confirmation


def session_choices(person: Caller, *, limit: int = 50) -> list[tuple[str, str]]:
    """The person's sessions to pick from, by title, app and time — and, by id, sessions kept by another
    system that their memories name. A person chooses one of these; nobody types a session id."""
    subject = {"tenant_id": person.tenant_id, "user_id": person.subject_id or ""}
    choices = []
    for session in sessions_for_subject(**subject)[:limit]:
        when = date_format(localtime(session.last_active_at), "SHORT_DATETIME_FORMAT")
        title = session.title or _("(untitled)")
        choices.append((str(session.pk), f"{title} · {session.app} · {when}"))
    known = {value for value, _label in choices}
    for session_id in session_ids_for_subject(**subject):
        if session_id not in known:
            choices.append((session_id, _("Kept elsewhere: %(id)s") % {"id": session_id}))
    return choices
