"""The tenant admin's policy page: edit (a new version), restore an earlier version, agent rights.

Thin views over ``governance.services.policy``; only tenant admins get here (others: the missing-page
404, and an agent of another tenant is missing too). Saving, restoring and an agent's rights show their
plan first, each setting before → after (``console.plans``).
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
from console.plans import Change, Plan, plan_then_act
from console.templatetags.console_tags import policy_key_label, policy_value
from governance.labels import LEVEL_LABELS, TYPE_LABELS, label
from governance.policy import PolicyDocumentError
from governance.selectors.policy import (
    agent_get,
    agents_for_policy,
    policy_current,
    policy_history,
    policy_version_document,
)
from governance.services.policy import (
    PolicyError,
    agent_rights_set,
    policy_diff,
    policy_document_validate,
    policy_version_create,
    policy_version_restore,
)


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
    version, document = policy_current(tenant_id=access.tenant.pk)
    form = PolicyForm(request.POST, current=document)
    if not form.is_valid():
        return _page(request, access, form=form, status=400)

    def act() -> HttpResponse:
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

    try:
        policy_document_validate(form.document())
    except PolicyDocumentError:
        return act()  # nothing to plan: the service's refusal names the field (400)
    changes = _policy_changes(document, form.document())
    if not changes:
        return act()  # the policy in force already: the service's "nothing changed" (400)
    plan = Plan(
        title=_("Save the policy as version %(version)s?") % {"version": version + 1},
        subject=_("The policy of %(tenant)s, version %(version)s in force")
        % {"tenant": access.tenant.name, "version": version},
        changes=changes,
        notes=[
            _("It is in force from the next write and read on; version %(version)s stays in the history.")
            % {"version": version},
            _("Why: %(reason)s") % {"reason": form.cleaned_data["reason"]},
        ],
        confirm_label=_("Yes, save version %(version)s") % {"version": version + 1},
        cancel_url=reverse("console:policy"),
        state=["policy", version],
        danger=False,
    )
    return plan_then_act(request, access, plan, act, console_page="policy")


def _policy_changes(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    return [
        Change(policy_key_label(key), policy_value(key, old), policy_value(key, new))
        for key, old, new in policy_diff(before, after)
    ]


@console_page(ADMIN_PERM)
@require_POST
def policy_restore(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    form = RestoreForm(request.POST)
    if not form.is_valid():
        errors = " ".join(error for field_errors in form.errors.values() for error in field_errors)
        return _page(request, access, restore_form=form, restore_error=errors, status=400)
    wanted = form.cleaned_data["version"]
    earlier = policy_version_document(tenant_id=access.tenant.pk, version=wanted)
    if earlier is None:
        raise Http404("no such version")
    version, document = policy_current(tenant_id=access.tenant.pk)

    def act() -> HttpResponse:
        try:
            saved = policy_version_restore(
                tenant=access.tenant, version=wanted, reason=form.cleaned_data["reason"], actor=access.actor
            )
        except PolicyError as exc:
            if exc.field == "version":
                raise Http404("no such version") from exc
            return _page(
                request,
                access,
                restore_form=form,
                restore_error=_("That version is the policy in force already."),
                status=409,
            )
        messages.success(
            request, _("Version %(old)s is back in force as version %(new)s.") % {"old": wanted, "new": saved.version}
        )
        return redirect("console:policy")

    changes = _policy_changes(document, earlier)
    if not changes:
        return act()  # the version in force already: the service refuses it
    plan = Plan(
        title=_("Put version %(old)s back in force?") % {"old": wanted},
        subject=_("The policy of %(tenant)s, version %(version)s in force")
        % {"tenant": access.tenant.name, "version": version},
        changes=changes,
        notes=[
            _("Version %(old)s's settings are saved as version %(new)s; the history is kept.")
            % {"old": wanted, "new": version + 1},
            _("Why: %(reason)s") % {"reason": form.cleaned_data["reason"]},
        ],
        confirm_label=_("Yes, restore version %(old)s") % {"old": wanted},
        cancel_url=reverse("console:policy"),
        state=["policy", version, wanted],
    )
    return plan_then_act(request, access, plan, act, console_page="policy")


@console_page(ADMIN_PERM)
@require_POST
def agent_rights(request: HttpRequest, access: ConsoleAccess, agent_id: int) -> HttpResponse:
    client = agent_get(tenant_id=access.tenant.pk, agent_id=agent_id)
    if client is None or not client.is_active:
        raise Http404("no such agent")
    form = AgentRightsForm(request.POST, prefix=f"a{client.pk}")
    if not form.is_valid():
        return _page(request, access, rights_form=form, status=400)
    types, levels = list(form.cleaned_data["allowed_types"]), list(form.cleaned_data["allowed_levels"])

    def act() -> HttpResponse:
        try:
            agent_rights_set(client=client, allowed_types=types, allowed_levels=levels, actor=access.actor)
        except PolicyError as exc:
            form.add_error(exc.field or None, str(exc))
            return _page(request, access, rights_form=form, status=400)
        messages.success(
            request, _("Rights of %(agent)s saved; they apply to its next write.") % {"agent": client.name}
        )
        return redirect(reverse("console:policy") + "#agents")

    changes = [
        Change(what, _rights_words(table, old), _rights_words(table, new))
        for what, table, old, new in (
            (_("Memory types it may write"), TYPE_LABELS, client.allowed_types, types),
            (_("Scopes it may write"), LEVEL_LABELS, client.allowed_levels, levels),
        )
        if sorted(old) != sorted(new)
    ]
    plan = Plan(
        title=_("Change what %(agent)s may write?") % {"agent": client.name},
        subject=_("Agent %(agent)s, key %(prefix)s…") % {"agent": client.name, "prefix": client.key_prefix},
        changes=changes,
        notes=[_("They apply to its next write.")],
        confirm_label=_("Yes, change its rights"),
        cancel_url=reverse("console:policy") + "#agents",
        state=["agent-rights", client.pk, sorted(client.allowed_types), sorted(client.allowed_levels)],
        danger=False,
    )
    return plan_then_act(request, access, plan, act, console_page="policy")


def _rights_words(table: dict, codes: list[str]) -> str:
    return ", ".join(label(table, code) for code in sorted(codes)) or _("whatever the policy allows")
