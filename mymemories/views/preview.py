"""'What would the agent see?': the context block the read path would inject for a query, for this person."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from memories.access import Caller
from memories.read.context import ContextRequest, ContextResult, memory_context_build
from memories.read.scope import ContextScope
from memories.selectors import subject_is_paused
from mymemories.forms import PreviewForm
from mymemories.views._base import person_required


def agent_context_preview(*, person: Caller, query: str, project: str = "", session_id: str = "") -> ContextResult:
    """Exactly what the read path would inject for this person's own scope, recorded as a preview
    (a ``memory_read``, not a ``memory_injected``, and no usage counted as an agent's)."""
    scope = ContextScope(user_id=person.subject_id or "", project=project, session_id=session_id)
    return memory_context_build(caller=person, request=ContextRequest(scope=scope, query=query), preview=True)


@require_http_methods(["GET", "POST"])
@person_required
def preview_view(request: HttpRequest, person: Caller) -> HttpResponse:
    """POST, so the query (which may say something personal) never lands in a URL or access log."""
    form = PreviewForm(request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {"form": form, "nav": "preview"}
    if request.method == "POST" and form.is_valid():
        context["preview"] = agent_context_preview(
            person=person,
            query=form.cleaned_data["query"],
            project=form.cleaned_data["project"],
            session_id=form.cleaned_data["session_id"],
        )
        context["paused"] = subject_is_paused(tenant_id=person.tenant_id, user_id=person.subject_id or "")
    return render(request, "memories/preview.html", context, status=400 if form.errors else 200)
