"""Several memories at once, from the list's checkboxes: the plan naming each one → "yes" → done.

Delete, pause and resume all show their plan first, and change nothing without the person's "yes"; each
memory then goes through the one-memory service (``memories.services.bulk.memory_bulk_apply``), so the
audit holds one event per memory, exactly as if they had been changed one by one. A selection naming
anything that is not one of the person's own current memories — a teammate's, another tenant's, a shared
rule, a deleted or a made-up id — is refused whole, the same way for each, and nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from memories.access import Caller
from memories.selectors import memory_list_by_ids_for_subject
from memories.services.bulk import BulkAction, BulkPlan, memory_bulk_apply, memory_bulk_plan
from memories.services.records import MemoryStateError
from mymemories.forms import LISTABLE_STATUSES, BulkForm
from mymemories.views._base import person_required


def _list_url(sort: str) -> str:
    return reverse("my-memories") + (f"?{urlencode({'sort': sort})}" if sort else "")


def _done_message(action: BulkAction, count: int) -> str:
    if action == BulkAction.DELETE:
        return ngettext(
            "Deleted %(count)d memory. Agents no longer see it; you can restore it from Recently deleted.",
            "Deleted %(count)d memories. Agents no longer see them; you can restore them from Recently deleted.",
            count,
        ) % {"count": count}
    if action == BulkAction.PAUSE:
        return ngettext(
            "Paused %(count)d memory. Agents won't use it until you resume it.",
            "Paused %(count)d memories. Agents won't use them until you resume them.",
            count,
        ) % {"count": count}
    return ngettext(
        "Resumed %(count)d memory. Agents may use it again.",
        "Resumed %(count)d memories. Agents may use them again.",
        count,
    ) % {"count": count}


@require_POST
@person_required
def memory_bulk_view(request: HttpRequest, person: Caller) -> HttpResponse:
    """Without ``confirm``: the plan. With it: the change, if the plan is still what the person saw."""
    form = BulkForm(request.POST)
    if not form.is_valid():
        return _refused(request, [error for field in form for error in field.errors] + form.non_field_errors())
    data = form.cleaned_data
    sort, action = data["sort"], BulkAction(data["action"])
    context: dict[str, Any] = {"form": form, "nav": "list", "back": _list_url(sort)}
    memories = memory_list_by_ids_for_subject(
        tenant_id=person.tenant_id,
        user_id=person.subject_id or "",
        memory_ids=data["ids"],
        statuses=LISTABLE_STATUSES,
    )
    if len(memories) != len(data["ids"]):  # missing and not-yours alike: one message, nothing changed
        return _refused(
            request, [_("Some of the selected memories are not yours or no longer exist. Nothing was changed.")], sort
        )
    plan = memory_bulk_plan(memories=memories, action=action)
    context.update({"plan": plan, "changes": [m.pk for m in plan.changes], "ids": [m.pk for m in memories]})
    if not data["confirm"]:
        return render(request, "memories/bulk.html", context)
    if set(data["changes"]) != {m.pk for m in plan.changes}:
        return _changed_since(request, context)
    if not plan.changes:
        messages.info(request, _("Nothing was changed: none of the selected memories needed it."))
        return redirect(_list_url(sort))
    try:
        memory_bulk_apply(memories=plan.changes, action=action, actor=person.actor)
    except MemoryStateError:  # one changed under the plan (another tab, an expiry): none changed
        return _changed_since(request, context, plan=_fresh_plan(person, data["ids"], action))
    messages.success(request, _done_message(action, len(plan.changes)))
    return redirect(_list_url(sort))


def _refused(request: HttpRequest, errors: list[str], sort: str = "") -> HttpResponse:
    return render(request, "memories/bulk.html", {"errors": errors, "nav": "list", "back": _list_url(sort)}, status=400)


def _fresh_plan(person: Caller, ids: list, action: BulkAction) -> BulkPlan:
    memories = memory_list_by_ids_for_subject(
        tenant_id=person.tenant_id, user_id=person.subject_id or "", memory_ids=ids, statuses=LISTABLE_STATUSES
    )
    return memory_bulk_plan(memories=memories, action=action)


def _changed_since(request: HttpRequest, context: dict[str, Any], *, plan: BulkPlan | None = None) -> HttpResponse:
    """409 with the plan as it is now, to say yes to again: "yes" only ever applies a plan the person saw."""
    if plan is not None:
        context.update({"plan": plan, "changes": [m.pk for m in plan.changes]})
    context["stale"] = True
    return render(request, "memories/bulk.html", context, status=409)
