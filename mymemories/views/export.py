"""Export my data: a JSON file of everything held about the person (memories, versions, audit events)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from memories.access import Caller
from memories.services.export import subject_export
from mymemories.forms import EraseForm
from mymemories.views._base import person_required


@require_GET
@person_required
def data_view(request: HttpRequest, person: Caller) -> HttpResponse:
    """The "your data" page: export, and the way to erasure."""
    return render(request, "memories/data.html", {"erase_form": EraseForm(), "nav": "data"})


@require_POST
@person_required
def export_view(request: HttpRequest, person: Caller) -> HttpResponse:
    """A download, by POST: exporting is an audited action, not something a link prefetch may trigger."""
    document = subject_export(tenant_id=person.tenant_id, user_id=person.subject_id or "", actor=person.actor)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8"
    )
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    response["Content-Disposition"] = f'attachment; filename="memgov-my-data-{stamp}.json"'
    response["Cache-Control"] = "no-store"
    return response
