"""Plan, then yes: every console action that removes, revokes or changes something first shows its plan.

A POST without ``confirm`` renders the plan page — what it acts on, each change as before → after, what
follows from it — with Cancel and a confirm button; nothing changes. The confirm button posts the same
fields again with ``confirm`` and the plan's ``plan`` token: an HMAC over the path, the posted fields and
the state of the objects the plan was made from (ids, statuses, versions). The view rebuilds the plan from
what is in the database at that moment; only when its token is the one the person saw does it act. A rule,
key, person or policy that changed in between (another admin, another tab) answers 409 with the plan as it
is now, to confirm again or cancel: "yes" never applies something the person was not shown.

The same shape as My memories' bulk changes and commands (the plan names each memory, "yes" carries them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare, salted_hmac

from console.access import ConsoleAccess
from console.nav import console_render

SALT = "memgov.console.plan"
# Fields the plan page doesn't post back as they came: the framework's and the plan's own.
_OWN_FIELDS = {"csrfmiddlewaretoken", "confirm", "plan"}


@dataclass(frozen=True)
class Change:
    """One thing that changes: what (a rule, a key, a person's role), and its value before and after."""

    what: str
    before: str
    after: str


@dataclass(frozen=True)
class Plan:
    """What a console action will do, in the reader's words, and the state it was worked out from."""

    title: str
    subject: str  # the one object the action is about, named ("the key of support-bot (mg_ab12…)")
    changes: Sequence[Change]
    confirm_label: str
    cancel_url: str
    state: Any  # JSON-able: ids, statuses, versions — whatever, if changed, makes this a different plan
    notes: Sequence[str] = field(default_factory=tuple)
    danger: bool = True


def _posted(request: HttpRequest) -> list[tuple[str, list[str]]]:
    return sorted((name, values) for name, values in request.POST.lists() if name not in _OWN_FIELDS)


def plan_token(request: HttpRequest, access: ConsoleAccess, plan: Plan) -> str:
    """The token of this plan for this person, in this tenant, for this request's path and fields (the
    confirm must carry the same): a plan shown to one admin, or in one tenant, confirms nothing elsewhere."""
    who = [access.membership.pk, access.tenant.pk, request.user.pk]
    payload = json.dumps([who, request.path, _posted(request), plan.state], sort_keys=True, default=str)
    return salted_hmac(SALT, payload).hexdigest()[:32]


def _render(request: HttpRequest, access: ConsoleAccess, plan: Plan, *, console_page: str, stale: bool) -> HttpResponse:
    context = {
        "console_page": console_page,
        "plan": plan,
        "token": plan_token(request, access, plan),
        "fields": [(name, value) for name, values in _posted(request) for value in values],
        "stale": stale,
    }
    return console_render(request, access, "console/plan.html", context, 409 if stale else 200)


def plan_then_act(
    request: HttpRequest,
    access: ConsoleAccess,
    plan: Plan,
    act: Callable[[], HttpResponse],
    *,
    console_page: str,
) -> HttpResponse:
    """The plan page (no ``confirm``), a 409 with the fresh plan (a token that no longer matches), or
    ``act()`` — only for the plan the person confirmed. Call it after the input is checked (4xx first)."""
    if not request.POST.get("confirm"):
        return _render(request, access, plan, console_page=console_page, stale=False)
    if not constant_time_compare(request.POST.get("plan", ""), plan_token(request, access, plan)):
        return _render(request, access, plan, console_page=console_page, stale=True)
    return act()
