"""A person's sessions: one session's history (its current branch), and deleting it.

Deleting asks first, on a page that names the session (app, title, when, how many events) and lists each
memory that goes with it. The "yes" carries what that page showed (the event count and the memory ids);
if the session or its memories changed since, nothing is deleted and the page shows what would go now
(409), as My memories' bulk changes do.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from conversations.access import session_for_caller
from conversations.models import Session
from conversations.selectors.deletion import SessionDeletionTargets, session_deletion_targets
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
    # What the confirm page showed: a plan that no longer matches deletes nothing.
    events = forms.IntegerField(min_value=0, required=False)
    scoped = forms.TypedMultipleChoiceField(required=False, coerce=str)
    learned = forms.TypedMultipleChoiceField(required=False, coerce=str)

    def __init__(self, *args: object, targets: SessionDeletionTargets, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # Any id may come back; a made-up one simply doesn't match the plan.
        self.fields["scoped"].valid_value = lambda value: len(str(value)) <= 64  # type: ignore[attr-defined]
        self.fields["learned"].valid_value = lambda value: len(str(value)) <= 64  # type: ignore[attr-defined]
        self.targets = targets

    def matches(self, session: Session) -> bool:
        """Whether the plan this "yes" answers is the one deleting would carry out now."""
        data, targets = self.cleaned_data, self.targets
        return (
            data.get("events") == session.event_count
            and set(data.get("scoped") or []) == {str(m.pk) for m in targets.scoped}
            and (not data["forget_extracted"] or set(data.get("learned") or []) == {str(m.pk) for m in targets.learned})
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
    """GET asks, naming the session and what goes with it; POST deletes the session's history and its
    session and task memories (and, when asked, what was learned only from it) — if the plan still holds."""
    session = session_for_caller(person, session_id)
    targets = session_deletion_targets(session)
    form = SessionDeleteForm(request.POST if request.method == "POST" else None, targets=targets)
    context = {"session": session, "form": form, "targets": targets, "nav": "controls"}
    if request.method != "POST":
        return render(request, "memories/session_delete.html", context)
    if not form.is_valid():
        return render(request, "memories/session_delete.html", context, status=400)
    if not form.matches(session):
        return render(request, "memories/session_delete.html", {**context, "stale": True}, status=409)
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
