"""The person's agents: which of the tenant's agents wrote or read their memories and when (from the audit
log), and one switch per agent that stops it using them — or gives them back."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from memories.access import Caller
from memories.agent_selectors import agent_activity_for_subject, agent_for_subject
from memories.services.agent_access import agent_access_set
from mymemories.views._base import person_required


class AgentSwitchForm(forms.Form):
    """What the switch sends: ``use=on`` gives the agent the person's memories back, ``use=off`` stops it."""

    use = forms.ChoiceField(
        choices=[("on", "on"), ("off", "off")],
        error_messages={
            "required": gettext_lazy("Say whether this agent may use your memories (on or off)."),
            "invalid_choice": gettext_lazy("Say whether this agent may use your memories (on or off)."),
        },
    )


def _page(request: HttpRequest, person: Caller, *, status: int = 200, **extra: object) -> HttpResponse:
    agents = agent_activity_for_subject(tenant_id=person.tenant_id, user_id=person.subject_id or "")
    context = {"agents": agents, "nav": "agents", **extra}
    return render(request, "memories/agents.html", context, status=status)


@require_GET
@person_required
def agents_view(request: HttpRequest, person: Caller) -> HttpResponse:
    return _page(request, person)


@require_POST
@person_required
def agent_switch_view(request: HttpRequest, person: Caller, agent_id: int) -> HttpResponse:
    """One switch: off stops this agent using the person's memories, on gives them back. Another tenant's
    agent is the same 404 as no agent; the person can only ever switch for their own subject id."""
    agent = agent_for_subject(tenant_id=person.tenant_id, agent_id=agent_id)
    if agent is None:
        raise Http404("no such agent")
    form = AgentSwitchForm(request.POST)
    if not form.is_valid():
        return _page(request, person, status=400, switch_errors=form.errors["use"], failed_agent=agent.pk)
    blocked = form.cleaned_data["use"] == "off"
    agent_access_set(
        tenant_id=person.tenant_id,
        user_id=person.subject_id or "",
        agent_id=agent.pk,
        blocked=blocked,
        actor=person.actor,
    )
    if blocked:
        message = _("%(agent)s is switched off: it gets none of your memories and can save nothing about you.")
    else:
        message = _("%(agent)s may use your memories again.")
    messages.success(request, message % {"agent": agent.name})
    return redirect("my-agents")
