"""Agent keys in the console: list, create, revoke, rotate. A new key is shown once, on the response
to the request that made it (never stored, never in a URL or a flash message), with ``no-store``.
Revoke, rotate and a change of scopes show their plan first (``console.plans``).
"""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from audit.selectors import security_events_recent
from console.access import ADMIN_PERM, ConsoleAccess, console_page
from console.forms_people import AgentCreateForm, AgentScopesForm
from console.nav import console_render
from console.plans import Change, Plan, plan_then_act
from governance.models import AgentClient
from governance.scopes import OWN_RIGHT_ENDPOINTS, SCOPE_TABLE
from governance.selectors.policy import agent_get
from governance.services.tenancy import agent_key_create, agent_key_revoke, agent_key_rotate, agent_scopes_set


def _agents_page(
    request: HttpRequest,
    access: ConsoleAccess,
    *,
    form: AgentCreateForm | None = None,
    scopes_form: tuple[int, AgentScopesForm] | None = None,
    status: int = 200,
):
    agents = AgentClient.objects.filter(tenant=access.tenant).order_by("revoked_at", "name")
    rows = [
        (
            agent,
            scopes_form[1]
            if scopes_form is not None and scopes_form[0] == agent.pk
            else AgentScopesForm(initial={"scopes": agent.scopes}, prefix=f"s{agent.pk}"),
        )
        for agent in agents
    ]
    context = {
        "console_page": "agents",
        "agents": rows,
        "form": form or AgentCreateForm(),
        "scope_table": SCOPE_TABLE,
        "own_right_endpoints": OWN_RIGHT_ENDPOINTS,
        "security_events": security_events_recent(tenant_id=access.tenant.pk),
    }
    return console_render(request, access, "console/agents.html", context, status)


def _key_once(
    request: HttpRequest, access: ConsoleAccess, client: AgentClient, key: str, *, rotated: bool
) -> HttpResponse:
    response = console_render(
        request,
        access,
        "console/agent_key.html",
        {"console_page": "agents", "client": client, "key": key, "rotated": rotated},
    )
    response["Cache-Control"] = "no-store"
    return response


def _active_agent(access: ConsoleAccess, agent_id: int) -> AgentClient:
    client = agent_get(tenant_id=access.tenant.pk, agent_id=agent_id)
    if client is None:
        raise Http404("no such agent")
    return client


@console_page(ADMIN_PERM)
@require_safe
def agent_list(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    return _agents_page(request, access)


@console_page(ADMIN_PERM)
@require_POST
def agent_create(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    form = AgentCreateForm(request.POST)
    if not form.is_valid():
        return _agents_page(request, access, form=form, status=400)
    name = form.cleaned_data["name"]
    if AgentClient.objects.filter(tenant=access.tenant, name=name).exists():
        form.add_error("name", _("An agent with this name exists already."))
        return _agents_page(request, access, form=form, status=400)
    try:
        client, key = agent_key_create(
            tenant=access.tenant, name=name, actor=access.actor, scopes=form.cleaned_data["scopes"]
        )
    except IntegrityError:  # created meanwhile by another admin
        form.add_error("name", _("An agent with this name exists already."))
        return _agents_page(request, access, form=form, status=400)
    return _key_once(request, access, client, key, rotated=False)


def _key_state(client: AgentClient) -> list[object]:
    return ["agent", client.pk, client.key_prefix, client.revoked_at, sorted(client.scopes)]


def _key_name(client: AgentClient) -> str:
    return _("Agent %(agent)s, key %(prefix)s…") % {"agent": client.name, "prefix": client.key_prefix}


def _scope_words(scopes: list[str]) -> str:
    return ", ".join(sorted(scopes)) or _("none")


@console_page(ADMIN_PERM)
@require_POST
def agent_revoke(request: HttpRequest, access: ConsoleAccess, agent_id: int) -> HttpResponse:
    client = _active_agent(access, agent_id)

    def act() -> HttpResponse:
        agent_key_revoke(client=client, actor=access.actor)
        messages.success(
            request, _("The key of %(agent)s is revoked: it stops working at once.") % {"agent": client.name}
        )
        return redirect("console:agents")

    plan = Plan(
        title=_("Revoke the key of %(agent)s?") % {"agent": client.name},
        subject=_key_name(client),
        changes=[Change(_("Key %(prefix)s…") % {"prefix": client.key_prefix}, _("Works"), _("Revoked"))]
        if client.is_active
        else [],
        notes=[
            _("Every call with this key is refused from then on; an agent using it stops at once."),
            _("What it wrote and the audit log stay. Issue a new key later to use the agent again."),
        ],
        confirm_label=_("Yes, revoke the key"),
        cancel_url=reverse("console:agents"),
        state=_key_state(client),
    )
    return plan_then_act(request, access, plan, act, console_page="agents")


@console_page(ADMIN_PERM)
@require_POST
def agent_rotate(request: HttpRequest, access: ConsoleAccess, agent_id: int) -> HttpResponse:
    client = _active_agent(access, agent_id)

    def act() -> HttpResponse:
        rotated, key = agent_key_rotate(client=client, actor=access.actor)
        return _key_once(request, access, rotated, key, rotated=True)

    before = _("Key %(prefix)s… works") % {"prefix": client.key_prefix} if client.is_active else _("Revoked")
    plan = Plan(
        title=_("Issue a new key for %(agent)s?") % {"agent": client.name},
        subject=_key_name(client),
        changes=[Change(_("Key"), before, _("A new key, shown once"))],
        notes=[
            _("The old key stops working at once: give the new one to the agent straight away."),
            _("The new key is shown once, on the next page, and never again."),
        ],
        confirm_label=_("Yes, issue a new key"),
        cancel_url=reverse("console:agents"),
        state=_key_state(client),
    )
    return plan_then_act(request, access, plan, act, console_page="agents")


@console_page(ADMIN_PERM)
@require_POST
def agent_scopes(request: HttpRequest, access: ConsoleAccess, agent_id: int) -> HttpResponse:
    client = _active_agent(access, agent_id)
    form = AgentScopesForm(request.POST, prefix=f"s{client.pk}")
    if not form.is_valid():
        return _agents_page(request, access, scopes_form=(client.pk, form), status=400)
    scopes = list(form.cleaned_data["scopes"])

    def act() -> HttpResponse:
        agent_scopes_set(client=client, scopes=scopes, actor=access.actor)
        messages.success(request, _("Scopes of %(agent)s saved; they apply to its next call.") % {"agent": client.name})
        return redirect("console:agents")

    unchanged = sorted(scopes) == sorted(client.scopes)
    plan = Plan(
        title=_("Change the scopes of %(agent)s?") % {"agent": client.name},
        subject=_key_name(client),
        changes=[] if unchanged else [Change(_("Scopes"), _scope_words(client.scopes), _scope_words(scopes))],
        notes=[_("They apply to its next call: a call a removed scope allowed is refused from then on.")],
        confirm_label=_("Yes, change the scopes"),
        cancel_url=reverse("console:agents"),
        state=_key_state(client),
        danger=bool(set(client.scopes) - set(scopes)),
    )
    return plan_then_act(request, access, plan, act, console_page="agents")
