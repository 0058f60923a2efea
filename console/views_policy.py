"""The tenant admin's policy page: edit (a new version), restore an earlier version, agent rights.

Thin views over ``governance.services.policy``; only tenant admins get here (others: the missing-page
404, and an agent of another tenant is missing too).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from console.access import ADMIN_PERM, ConsoleAccess, console_page
from console.forms_policy import AgentRightsForm, PolicyForm, RestoreForm, form_field_for
from console.nav import console_render
from governance.selectors.policy import agent_get, agents_for_policy, policy_current, policy_history
from governance.services.policy import PolicyError, agent_rights_set, policy_version_create, policy_version_restore


def _page(
    request: HttpRequest,
    access: ConsoleAccess,
    *,
    form: PolicyForm | None = None,
    restore_form: RestoreForm | None = None,
    restore_error: str = "",
    rights_form: AgentRightsForm | None = None,
    status: int = 200,
) -> HttpResponse:
    version, document = policy_current(tenant_id=access.tenant.pk)
    agents = agents_for_policy(tenant_id=access.tenant.pk)
    context: dict[str, Any] = {
        "console_page": "policy",
        "version": version,
        "form": form or PolicyForm(current=document),
        "history": policy_history(tenant_id=access.tenant.pk),
        "restore_form": restore_form,
        "restore_error": restore_error,
        "agents": [
            (
                agent,
                rights_form
                if rights_form is not None and rights_form.prefix == f"a{agent.pk}"
                else AgentRightsForm(
                    initial={"allowed_types": agent.allowed_types, "allowed_levels": agent.allowed_levels},
                    prefix=f"a{agent.pk}",
                ),
            )
            for agent in agents
        ],
    }
    return console_render(request, access, "console/policy.html", context, status)


def _policy_message(exc: PolicyError) -> str:
    """The service's refusal in the reader's language (the form catches the rest before the service)."""
    if exc.code == "unchanged":
        return _("Nothing changed: this is the policy in force already.")
    if exc.code == "no_reason":
        return _("Say why the policy changes.")
    return str(exc)


@console_page(ADMIN_PERM)
@require_http_methods(["GET", "POST"])
def policy_page(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    """GET: the policy in force as a form, and its history. POST: save it as a new version."""
    if request.method != "POST":
        return _page(request, access)
    document = policy_current(tenant_id=access.tenant.pk)[1]
    form = PolicyForm(request.POST, current=document)
    if not form.is_valid():
        return _page(request, access, form=form, status=400)
    try:
        saved = policy_version_create(
            tenant=access.tenant, document=form.document(), reason=form.cleaned_data["reason"], actor=access.actor
        )
    except PolicyError as exc:
        form.add_error(form_field_for(exc.field) if exc.field != "reason" else "reason", _policy_message(exc))
        return _page(request, access, form=form, status=400)
    messages.success(
        request, _("Saved as policy version %(version)s. It is in force now.") % {"version": saved.version}
    )
    return redirect("console:policy")


@console_page(ADMIN_PERM)
@require_POST
def policy_restore(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    form = RestoreForm(request.POST)
    if not form.is_valid():
        errors = " ".join(error for field_errors in form.errors.values() for error in field_errors)
        return _page(request, access, restore_form=form, restore_error=errors, status=400)
    try:
        saved = policy_version_restore(
            tenant=access.tenant,
            version=form.cleaned_data["version"],
            reason=form.cleaned_data["reason"],
            actor=access.actor,
        )
    except PolicyError as exc:
        status = 404 if exc.field == "version" else 409
        if status == 404:
            raise Http404("no such version") from exc
        return _page(
            request,
            access,
            restore_form=form,
            restore_error=_("That version is the policy in force already."),
            status=status,
        )
    messages.success(
        request,
        _("Version %(old)s is back in force as version %(new)s.")
        % {"old": form.cleaned_data["version"], "new": saved.version},
    )
    return redirect("console:policy")


@console_page(ADMIN_PERM)
@require_POST
def agent_rights(request: HttpRequest, access: ConsoleAccess, agent_id: int) -> HttpResponse:
    client = agent_get(tenant_id=access.tenant.pk, agent_id=agent_id)
    if client is None or not client.is_active:
        raise Http404("no such agent")
    form = AgentRightsForm(request.POST, prefix=f"a{client.pk}")
    if not form.is_valid():
        return _page(request, access, rights_form=form, status=400)
    try:
        agent_rights_set(
            client=client,
            allowed_types=form.cleaned_data["allowed_types"],
            allowed_levels=form.cleaned_data["allowed_levels"],
            actor=access.actor,
        )
    except PolicyError as exc:
        form.add_error(exc.field or None, str(exc))
        return _page(request, access, rights_form=form, status=400)
    messages.success(request, _("Rights of %(agent)s saved; they apply to its next write.") % {"agent": client.name})
    return redirect(reverse("console:policy") + "#agents")
