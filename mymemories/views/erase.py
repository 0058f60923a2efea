"""Erase everything — memories and sessions: typed confirmation, crypto-shredding (the subject's data key is
destroyed), a receipt."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods

from conversations.selectors.sessions import sessions_for_subject
from conversations.services.erasure import subject_erase
from governance.vocabulary import Status
from memories.access import Caller
from memories.selectors import erasure_receipt_get, memory_list_for_subject
from mymemories.forms import ERASE_PHRASES, EraseForm
from mymemories.views._base import person_required


@require_http_methods(["GET", "POST"])
@person_required
def erase_view(request: HttpRequest, person: Caller) -> HttpResponse:
    form = EraseForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        erased = subject_erase(tenant_id=person.tenant_id, user_id=person.subject_id or "", actor=person.actor)
        return redirect("erase-receipt", receipt_id=erased.receipt.pk)
    status = 400 if request.method == "POST" else 200
    phrase = ERASE_PHRASES[1] if (get_language() or "").startswith("zh") else ERASE_PHRASES[0]
    subject = {"tenant_id": person.tenant_id, "user_id": person.subject_id or ""}
    # What goes, named before the phrase is typed: every memory (deleted ones in their grace too) and session.
    context = {
        "form": form,
        "phrase": phrase,
        "nav": "data",
        "memories": memory_list_for_subject(**subject, statuses=tuple(Status)).count(),
        "sessions": sessions_for_subject(**subject).count(),
    }
    return render(request, "memories/erase.html", context, status=status)


@require_GET
@person_required
def erase_receipt_view(request: HttpRequest, person: Caller, receipt_id: str) -> HttpResponse:
    receipt = erasure_receipt_get(tenant_id=person.tenant_id, user_id=person.subject_id or "", receipt_id=receipt_id)
    if receipt is None:
        raise Http404("no such receipt")
    return render(request, "memories/erase_receipt.html", {"receipt": receipt, "nav": "data"})
