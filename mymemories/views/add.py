"""Add a memory: the person's own explicit request, through the same write pipeline as an agent's write,
with the decision shown (saved, or refused and why)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from governance import labels
from governance.pipeline.base import Candidate, InvalidCandidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType
from memories.access import Caller
from memories.nlcommands.messages import reason_text
from memories.services.write import memory_write
from mymemories.forms import AddForm
from mymemories.views._base import person_required
from mymemories.views.list import list_page


@require_POST
@person_required
def memory_add_view(request: HttpRequest, person: Caller) -> HttpResponse:
    form = AddForm(request.POST, prefix="add")
    if not form.is_valid():
        return list_page(request, person, add_form=form)
    try:
        result = memory_write(
            tenant_id=person.tenant_id,
            candidate=Candidate(
                content=form.cleaned_data["content"],
                scope=Scope(Level.USER, user_id=person.subject_id or ""),
                source_type=SourceType.EXPLICIT_USER_REQUEST,
                type=MemoryType(form.cleaned_data["type"]),
                confidence=1.0,
            ),
            actor_label=person.actor,
            on_behalf_of=person.subject_id or "",
        )
    except InvalidCandidate as exc:
        form.add_error("content", str(exc).split(": ", 1)[-1])
        return list_page(request, person, add_form=form)
    decision = result.decision
    if decision.kind == "reject" or result.memory is None:
        reason = reason_text(decision.reason_code, decision.reason)
        messages.warning(request, _("Not remembered: %(reason)s Nothing was saved.") % {"reason": reason})
        return redirect("my-memories")
    why = labels.REASON_LABELS.get(decision.reason_code)
    if decision.kind == "ask_confirmation":
        messages.info(request, _("Saved, waiting for your confirmation under “To confirm”."))
    else:
        messages.success(request, _("Remembered. %(why)s") % {"why": why or ""})
    return redirect(reverse("my-memories") + f"#m-{result.memory.pk}")
