"""The console's landing page and the compliance officer's pages: audit search, export, subject requests.

Thin views: forms check input, selectors read, services write (and audit). Access is decided by
``console_page``; anyone without the permission gets the same 404 as a page that doesn't exist.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from audit.checkpoints import CheckpointMismatch
from audit.export import ChainDoesNotMatchCheckpoint, ExportFormat, audit_export_response, audit_export_start
from audit.selectors import audit_event_search
from audit.signing import SigningKeyMissing, key_id, public_key_text, signing_key_load
from console.access import AUDIT_PERM, ConsoleAccess, console_page
from console.forms_audit import AuditExportForm, AuditSearchForm, SubjectForm, SubjectLookupForm
from console.nav import console_render
from console.overview import rules_waiting_count
from console.subject_requests import erasure_receipt_list, subject_known, subject_memory_count
from memories.services.export import subject_export

PAGE_SIZE = 50


@console_page()
@require_safe
def console_home(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    context: dict[str, Any] = {"console_page": "home"}
    if access.can_administer:
        context["rules_waiting"] = rules_waiting_count(tenant_id=access.tenant.pk)
    return console_render(request, access, "console/home.html", context)


@console_page(AUDIT_PERM)
@require_safe  # read-only for everyone: there is nothing to post here
def audit_search(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    form = AuditSearchForm(request.GET or None)
    if form.is_bound and not form.is_valid():
        return console_render(
            request, access, "console/audit_search.html", {"form": form, "console_page": "audit", "page": None}, 400
        )
    filters = form.filters() if form.is_bound else {}
    events = audit_event_search(tenant_id=access.tenant.pk, **filters)
    page = Paginator(events, PAGE_SIZE).get_page(form.cleaned_data["page"] if form.is_bound else None)
    return console_render(
        request, access, "console/audit_search.html", {"form": form, "page": page, "console_page": "audit"}
    )


@console_page(AUDIT_PERM)
@require_safe
def audit_event_detail(request: HttpRequest, access: ConsoleAccess, seq: int) -> HttpResponse:
    """One event's full record (the search's filters ride along in the query string, for "back")."""
    event = audit_event_search(tenant_id=access.tenant.pk).filter(seq=seq).first()
    if event is None:
        raise Http404("no such event")
    return console_render(request, access, "console/audit_event.html", {"event": event, "console_page": "audit"})


def _signing_status() -> dict[str, str]:
    """The public key and its id for the page (so officers can hand the key to an auditor), or why not."""
    try:
        public = signing_key_load().public_key()
    except ImproperlyConfigured as exc:
        return {"signing_error": str(exc)}
    return {"public_key": public_key_text(public), "key_id": key_id(public)}


@console_page(AUDIT_PERM)
@require_http_methods(["GET", "POST"])
def audit_export(request: HttpRequest, access: ConsoleAccess) -> HttpResponseBase:
    """GET: the form and how to verify. POST: the download, streamed (the same export as the API)."""
    signing = _signing_status()
    form = AuditExportForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid() and "signing_error" not in signing:
            data = form.cleaned_data
            try:
                export = audit_export_start(
                    tenant=access.tenant,
                    fmt=ExportFormat(data["format"]),
                    start=data["start_at"],
                    end=data["end_at"],
                    actor=access.actor,
                )
            except SigningKeyMissing as exc:
                signing = {"signing_error": str(exc)}
            except (ChainDoesNotMatchCheckpoint, CheckpointMismatch) as exc:
                signing = {"signing_error": str(exc)}
            else:
                return audit_export_response(export)
        status = 503 if "signing_error" in signing else 400
    context = {"form": form, "console_page": "export", "api_path": "/api/v1/audit/export", **signing}
    return console_render(request, access, "console/audit_export.html", context, status)


def _subjects_page(
    request: HttpRequest, access: ConsoleAccess, form: SubjectForm, *, subject: str = "", page: int | None = None
) -> HttpResponse:
    """The subject requests page: the lookup form, the subject's holdings if one is given, the receipts."""
    context: dict[str, Any] = {"form": form, "console_page": "subjects"}
    if subject:
        context["subject"] = subject
        context["known"] = subject_known(tenant_id=access.tenant.pk, subject_id=subject)
        context["memory_count"] = subject_memory_count(tenant_id=access.tenant.pk, subject_id=subject)
    receipts = erasure_receipt_list(tenant_id=access.tenant.pk, subject_id=subject)
    context["receipts"] = Paginator(receipts, PAGE_SIZE).get_page(page)
    return console_render(request, access, "console/subjects.html", context, 400 if form.errors else 200)


@console_page(AUDIT_PERM)
@require_safe
def subject_requests(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    """Look a subject up (GET ?subject=…): what is held, the export button, their erasure receipts."""
    form = SubjectLookupForm(request.GET or None)
    if not form.is_bound or not form.is_valid():
        return _subjects_page(request, access, form)
    return _subjects_page(request, access, form, subject=form.cleaned_data["subject"], page=form.cleaned_data["page"])


@console_page(AUDIT_PERM)
@require_POST
def subject_export_download(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    """A data-access request: everything held about the subject as one JSON file (audited)."""
    form = SubjectForm(request.POST)
    if not form.is_valid():
        return _subjects_page(request, access, form)
    subject = form.cleaned_data["subject"]
    if not subject_known(tenant_id=access.tenant.pk, subject_id=subject):
        raise Http404("no such subject")
    document = subject_export(tenant_id=access.tenant.pk, user_id=subject, actor=access.actor)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8"
    )
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    # The subject id stays out of the file name: names travel in headers, logs and browser histories.
    response["Content-Disposition"] = f'attachment; filename="memgov-subject-export-{access.tenant.slug}-{stamp}.json"'
    response["Cache-Control"] = "no-store"
    return response
