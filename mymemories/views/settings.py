"""Controls over all of a person's memory: pause everything, and their sessions — each listed with a
"temporary" switch and "clear" (sessions memgov keeps), or "don't save" and "clear" (other session ids
their memories name).

"Don't save" and "clear" ask first, on a page naming the session (for one memgov keeps: app, title,
when, how many events) and what changes; clearing lists each memory it deletes, and its "yes" carries
their ids — if the session's memories changed since, nothing is deleted and the page shows what would
go now (409), as the bulk changes do."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from conversations.selectors.sessions import session_get, session_ids_known, sessions_for_subject
from conversations.services.errors import SessionInputError, SessionStateError
from conversations.services.sessions import SessionChange, session_temporary_set, session_update
from conversations.vocabulary import SessionState
from memories.access import Caller
from memories.selectors import (
    memory_list_for_subject,
    session_ids_for_subject,
    session_opt_outs_for_subject,
    subject_is_paused,
)
from memories.services.subjects import session_clear, session_opt_out, subject_set_paused
from mymemories.forms import ConfirmForm, SessionForm
from mymemories.views._base import person_required

SESSIONS_SHOWN = 50


class TemporaryForm(forms.Form):
    """What the "temporary" switch sends: on (nothing from the session is remembered) or off."""

    temporary = forms.ChoiceField(
        choices=[("on", "on"), ("off", "off")],
        error_messages={
            "required": gettext_lazy("Say whether this conversation is temporary (on or off)."),
            "invalid_choice": gettext_lazy("Say whether this conversation is temporary (on or off)."),
        },
    )


def _controls(request: HttpRequest, person: Caller, **extra: object) -> HttpResponse:
    subject = {"tenant_id": person.tenant_id, "user_id": person.subject_id or ""}
    with_memories = session_ids_for_subject(**subject)
    kept = session_ids_known(session_ids=with_memories, **subject)
    opt_outs = session_opt_outs_for_subject(**subject)
    sessions = list(sessions_for_subject(**subject)[:SESSIONS_SHOWN])
    titles = {str(session.pk): session.title or _("(untitled)") for session in sessions}
    for item in opt_outs:  # a listed session is named by its title, never by an id nobody knows
        item.title = titles.get(item.session_id, "")
    context = {
        "paused": subject_is_paused(**subject),
        "sessions": sessions,
        # The conversation going on now: the most recently active one that hasn't ended.
        "current": next((s for s in sessions if s.state != SessionState.ENDED), None),
        "sessions_with_memories": set(with_memories),
        # Session ids memgov keeps no history for (another system's), named by the person's memories.
        "other_sessions": [sid for sid in with_memories if sid not in kept],
        "opted_out_ids": {item.session_id for item in opt_outs},
        "opt_outs": opt_outs,
        "optout_form": SessionForm(prefix="optout"),
        "clear_form": SessionForm(prefix="clear"),
        "nav": "controls",
    }
    context.update(extra)
    return render(request, "memories/controls.html", context, status=400 if extra else 200)


@require_GET
@person_required
def controls_view(request: HttpRequest, person: Caller) -> HttpResponse:
    return _controls(request, person)


@require_POST
@person_required
def subject_pause_view(request: HttpRequest, person: Caller) -> HttpResponse:
    subject_set_paused(tenant_id=person.tenant_id, user_id=person.subject_id or "", paused=True, actor=person.actor)
    messages.success(request, _("Memory is paused: nothing new is saved and nothing is used until you resume."))
    return redirect("memory-controls")


@require_POST
@person_required
def subject_resume_view(request: HttpRequest, person: Caller) -> HttpResponse:
    subject_set_paused(tenant_id=person.tenant_id, user_id=person.subject_id or "", paused=False, actor=person.actor)
    messages.success(request, _("Memory is on again."))
    return redirect("memory-controls")


@require_POST
@person_required
def session_opt_out_view(request: HttpRequest, person: Caller) -> HttpResponse:
    """First POST shows what "don't save" changes for the session named; the POST from that page does it."""
    form = SessionForm(request.POST, prefix="optout")
    if not form.is_valid():
        return _controls(request, person, optout_form=form)
    session_id = form.cleaned_data["session_id"]
    session = session_get(tenant_id=person.tenant_id, session_id=session_id, user_id=person.subject_id or "")
    confirm = ConfirmForm(request.POST)
    if not (confirm.is_valid() and confirm.cleaned_data["confirm"]):
        kept = memory_list_for_subject(tenant_id=person.tenant_id, user_id=person.subject_id or "").filter(
            session_id=session_id
        )
        context = {"session_id": session_id, "session": session, "kept": kept.count(), "nav": "controls"}
        return render(request, "memories/session_opt_out.html", context)
    if session is not None:  # a session memgov keeps: marked on it too (the opt-out row comes with it)
        change = SessionChange(dont_save=True)
        session_update(tenant_id=person.tenant_id, session_id=session.pk, change=change, actor=person.actor)
    else:
        session_opt_out(
            tenant_id=person.tenant_id, user_id=person.subject_id or "", session_id=session_id, actor=person.actor
        )
    messages.success(request, _("Nothing more will be saved from that session."))
    return redirect("memory-controls")


@require_POST
@person_required
def session_temporary_view(request: HttpRequest, person: Caller, session_id: str) -> HttpResponse:
    """The one switch of a listed session: temporary on (nothing more from it is remembered) or off
    (remembered as usual from now on; what was said while it was temporary never is). Nothing is deleted."""
    session = session_get(tenant_id=person.tenant_id, session_id=session_id, user_id=person.subject_id or "")
    if session is None:
        raise Http404("no such session")
    form = TemporaryForm(request.POST)
    if not form.is_valid():
        return _controls(request, person, temporary_errors=form.errors["temporary"])
    temporary = form.cleaned_data["temporary"] == "on"
    try:
        session_temporary_set(
            tenant_id=person.tenant_id,
            user_id=person.subject_id or "",
            session_id=session.pk,
            temporary=temporary,
            actor=person.actor,
        )
    except (SessionInputError, SessionStateError) as exc:
        raise Http404("no such session") from exc
    if temporary:
        messages.success(request, _("This conversation is temporary: nothing more from it will be remembered."))
    else:
        messages.success(
            request,
            _(
                "This conversation is no longer temporary: what you say from now on may be remembered. "
                "Nothing from while it was temporary will be."
            ),
        )
    return redirect("memory-controls")


@require_POST
@person_required
def session_clear_view(request: HttpRequest, person: Caller) -> HttpResponse:
    """First POST shows what would be deleted; the POST from that page (confirm=on) deletes it."""
    form = SessionForm(request.POST, prefix="clear")
    if not form.is_valid():
        return _controls(request, person, clear_form=form)
    session_id = form.cleaned_data["session_id"]
    subject = {"tenant_id": person.tenant_id, "user_id": person.subject_id or ""}
    memories = list(memory_list_for_subject(**subject).filter(session_id=session_id))
    confirm = ConfirmForm(request.POST)
    context = {
        "session_id": session_id,
        "session": session_get(tenant_id=person.tenant_id, session_id=session_id, user_id=person.subject_id or ""),
        "memories": memories,
        "form": form,
        "nav": "controls",
    }
    if not (confirm.is_valid() and confirm.cleaned_data["confirm"]):
        return render(request, "memories/session_clear.html", context)
    if set(request.POST.getlist("shown")) != {str(memory.pk) for memory in memories}:
        return render(request, "memories/session_clear.html", {**context, "stale": True}, status=409)
    count = session_clear(**subject, session_id=session_id, actor=person.actor)
    messages.success(
        request,
        ngettext("%(count)d memory of the session deleted.", "%(count)d memories of the session deleted.", count)
        % {"count": count},
    )
    return redirect("memory-controls")
