"""Change one memory: edit (a new version), delete (after a confirmation page), pause and resume."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from governance.pipeline.base import InvalidCandidate
from memories.access import Caller
from memories.nlcommands.messages import reason_text
from memories.services.edits import EditRefused, memory_edit
from memories.services.records import MemoryStateError, memory_delete, memory_pause, memory_resume
from mymemories.forms import EditForm
from mymemories.views._base import own_memory, person_required


def _back_to(memory_id: object) -> HttpResponse:
    return redirect(reverse("my-memories") + f"#m-{memory_id}")


@require_http_methods(["GET", "POST"])
@person_required
def memory_edit_view(request: HttpRequest, person: Caller, memory_id: str) -> HttpResponse:
    memory = own_memory(person, memory_id)
    form = EditForm(request.POST if request.method == "POST" else None, initial={"content": memory.content})
    if request.method == "POST" and form.is_valid():
        try:
            memory_edit(
                memory=memory,
                actor=person.actor,
                content=form.cleaned_data["content"],
                reason=form.cleaned_data["reason"],
            )
        except EditRefused as refused:
            form.add_error("content", _("Not saved: %(reason)s") % {"reason": reason_text(refused.code)})
        except InvalidCandidate:  # longer than the tenant's policy allows
            form.add_error("content", _("Not saved: it is longer than your organization allows."))
        except MemoryStateError:
            form.add_error(None, _("This memory can no longer be edited."))
        else:
            messages.success(request, _("Saved as a new version. The earlier one is kept in its history."))
            return _back_to(memory.pk)
    status = 400 if form.errors else 200  # refused content too: the person has something to fix
    return render(request, "memories/edit.html", {"memory": memory, "form": form, "nav": "list"}, status=status)


@require_http_methods(["GET", "POST"])
@person_required
def memory_delete_view(request: HttpRequest, person: Caller, memory_id: str) -> HttpResponse:
    """GET asks "are you sure?"; POST deletes: from that moment no agent read returns it."""
    memory = own_memory(person, memory_id)
    if request.method == "POST":
        memory_delete(memory=memory, actor=person.actor)
        messages.success(request, _("Deleted. Agents no longer see this memory."))
        return redirect("my-memories")
    return render(request, "memories/delete.html", {"memory": memory, "nav": "list"})


@require_POST
@person_required
def memory_pause_view(request: HttpRequest, person: Caller, memory_id: str) -> HttpResponse:
    try:
        memory_pause(memory=own_memory(person, memory_id), actor=person.actor)
    except MemoryStateError:
        messages.error(request, _("Only a memory in use can be paused."))
    else:
        messages.success(request, _("Paused. Agents won't use this memory until you resume it."))
    return _back_to(memory_id)


@require_POST
@person_required
def memory_resume_view(request: HttpRequest, person: Caller, memory_id: str) -> HttpResponse:
    try:
        memory_resume(memory=own_memory(person, memory_id), actor=person.actor)
    except MemoryStateError:
        messages.error(request, _("Only a paused memory can be resumed."))
    else:
        messages.success(request, _("Resumed. Agents may use this memory again."))
    return _back_to(memory_id)
