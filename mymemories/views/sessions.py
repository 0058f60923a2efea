"""A person's sessions: one session's history (its current branch), and deleting it."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from conversations.access import session_for_caller
from conversations.selectors.events import branch_events
from conversations.services.deletion import session_delete
from memories.access import Caller
from mymemories.views._base import person_required

# The newest events a history page shows; older ones are summarized by their count.
EVENTS_SHOWN = 200


class SessionDeleteForm(forms.Form):
    forget_extracted = forms.BooleanField(
        required=False, label=gettext_lazy("Also forget what was learned about me from this conversation")
    )


@require_GET
@person_required
def session_history_view(request: HttpRequest, person: Caller, session_id: str) -> HttpResponse:
    session = session_for_caller(person, session_id)
    events = (
        branch_events(tenant_id=person.tenant_id, leaf_id=session.leaf_id, limit=EVENTS_SHOWN)
        if session.leaf_id
        else []
    )
    earlier = (events[0].depth - 1) if events else 0
    context = {"session": session, "events": events, "earlier": earlier, "nav": "controls"}
    return render(request, "memories/session_history.html", context)


@require_http_methods(["GET", "POST"])
@person_required
def session_delete_view(request: HttpRequest, person: Caller, session_id: str) -> HttpResponse:
    """GET asks; POST deletes the session's history and its session and task memories."""
    session = session_for_caller(person, session_id)
    form = SessionDeleteForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        done = session_delete(
            tenant_id=person.tenant_id,
            session_id=session.pk,
            actor=person.actor,
            forget_extracted=form.cleaned_data["forget_extracted"],
        )
        events = done.events_deleted + done.events_kept_for_forks
        messages.success(
            request,
            _("The session was deleted: %(events)s and %(memories)s.")
            % {
                "events": ngettext("%(count)d event", "%(count)d events", events) % {"count": events},
                "memories": ngettext("%(count)d memory", "%(count)d memories", done.memories_deleted)
                % {"count": done.memories_deleted},
            },
        )
        return redirect("memory-controls")
    return render(request, "memories/session_delete.html", {"session": session, "form": form, "nav": "controls"})
