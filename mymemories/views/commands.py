"""The command box: a §18.2 sentence → the plan shown → (for anything destructive) a confirmation."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from memories.access import Caller
from memories.nlcommands import Intent, command_run
from memories.nlcommands.examples import EXAMPLES
from memories.nlcommands.messages import intent_label, plan_summary, result_summary
from memories.selectors import session_ids_for_subject
from memories.services.confirmations import ConfirmationError
from mymemories.forms import CommandForm
from mymemories.views._base import person_required


@require_http_methods(["GET", "POST"])
@person_required
def commands_view(request: HttpRequest, person: Caller) -> HttpResponse:
    form = CommandForm(request.POST if request.method == "POST" else None)
    context: dict[str, object] = {
        "form": form,
        "examples": EXAMPLES,
        "sessions": session_ids_for_subject(tenant_id=person.tenant_id, user_id=person.subject_id or ""),
        "nav": "commands",
    }
    if request.method != "POST" or not form.is_valid():
        return render(request, "memories/commands.html", context, status=400 if request.method == "POST" else 200)
    try:
        result = command_run(
            tenant_id=person.tenant_id,
            user_id=person.subject_id or "",
            actor=person.actor,
            text=form.cleaned_data["text"],
            session_id=form.cleaned_data["session_id"],
            confirm=form.cleaned_data["confirm"],
            only_ids=form.selected_ids() if form.cleaned_data["confirm"] else None,
        )
    except ConfirmationError:
        messages.error(request, _("This request was already settled or has expired."))
        return redirect("memory-commands")
    plan = result.plan
    if result.executed and plan.intent != Intent.LIST:
        rejected = result.write is not None and result.write.decision.kind == "reject"
        messages.add_message(request, messages.WARNING if rejected else messages.SUCCESS, result_summary(result))
        if plan.intent == Intent.REMEMBER and result.write is not None and result.write.confirmation is not None:
            return redirect("memory-inbox")
        return redirect("memory-commands" if plan.intent == Intent.DONT_SAVE else "my-memories")
    context.update(
        {
            "result": result,
            "plan": plan,
            "intent_label": intent_label(plan.intent),
            "summary": plan_summary(plan) if result.needs_confirmation else result_summary(result),
            "memory_ids": ",".join(str(m.pk) for m in plan.memories),
        }
    )
    return render(request, "memories/commands.html", context)
