"""Agent keys in the console: list, create, revoke, rotate. A new key is shown once, on the response
to the request that made it (never stored, never in a URL or a flash message), with ``no-store``.
"""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from audit.selectors import security_events_recent
from console.access import ADMIN_PERM, ConsoleAccess, console_page
from console.forms_people import AgentCreateForm, AgentScopesForm
from console.nav import console_render
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


@console_page(ADMIN_PERM)
@require_POST
def agent_revoke(request: HttpRequest, access: ConsoleAccess, agent_id: int) -> HttpResponse:
    client = _active_agent(access, agent_id)
    agent_key_revoke(client=client, actor=access.actor)
    messages.success(request, _("The key of %(agent)s is revoked: it stops working at once.") % {"agent": client.name})
    return redirect("console:agents")


@console_page(ADMIN_PERM)
@require_POST
def agent_rotate(request: HttpRequest, access: ConsoleAccess, agent_id: int) -> HttpResponse:
    client = _active_agent(access, agent_id)
    client, key = agent_key_rotate(client=client, actor=access.actor)
    return _key_once(request, access, client, key, rotated=True)


@console_page(ADMIN_PERM)
@require_POST
def agent_scopes(request: HttpRequest, access: ConsoleAccess, agent_id: int) -> HttpResponse:
    client = _active_agent(access, agent_id)
    form = AgentScopesForm(request.POST, prefix=f"s{client.pk}")
    if not form.is_valid():
        return _agents_page(request, access, scopes_form=(client.pk, form), status=400)
    agent_scopes_set(client=client, scopes=form.cleaned_data["scopes"], actor=access.actor)
    messages.success(request, _("Scopes of %(agent)s saved; they apply to its next call.") % {"agent": client.name})
    return redirect("console:agents")
