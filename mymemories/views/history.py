"""A memory's versions, newest first, and rollback to any of them (as a new version)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from memories.access import Caller
from memories.selectors import memory_versions
from memories.services.records import MemoryStateError, memory_rollback
from mymemories.forms import RollbackForm
from mymemories.views._base import own_memory, person_required


@require_GET
@person_required
def memory_history_view(request: HttpRequest, person: Caller, memory_id: str) -> HttpResponse:
    memory = own_memory(person, memory_id)
    versions = list(memory_versions(memory=memory))
    for version in versions:
        version.memory = memory  # the owner decides the decryption key: no query per version
    return render(request, "memories/history.html", {"memory": memory, "versions": versions, "nav": "list"})


@require_POST
@person_required
def memory_rollback_view(request: HttpRequest, person: Caller, memory_id: str) -> HttpResponse:
    memory = own_memory(person, memory_id)
    form = RollbackForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a version to restore."))
        return redirect("memory-history", memory_id=memory.pk)
    try:
        memory_rollback(memory=memory, to_version=form.cleaned_data["version"], actor=person.actor)
    except MemoryStateError:
        messages.error(request, _("That version can't be restored."))
    else:
        messages.success(
            request, _("Version %(version)d restored, as a new version.") % {"version": form.cleaned_data["version"]}
        )
    return redirect("memory-history", memory_id=memory.pk)
