"""The command box: a §18.2 sentence → the plan shown, naming each memory it touches → "yes" → done.

On this page nothing changes without the person's "yes": not only deletions but pausing ("stop using
this preference"), accepting what an agent asked, "don't save" and "remember" too. The "yes" carries the
ids of the memories shown, so a plan that would pick other memories by then changes nothing unseen.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from memories.access import Caller
from memories.nlcommands import Intent, command_plan, command_run, parse_command
from memories.nlcommands.examples import EXAMPLES
from memories.nlcommands.messages import intent_label, plan_summary, result_summary
from memories.services.confirmations import ConfirmationError
from mymemories.forms import CommandForm
from mymemories.views._base import person_required, session_choices


@require_http_methods(["GET", "POST"])
@person_required
def commands_view(request: HttpRequest, person: Caller) -> HttpResponse:
    sessions = session_choices(person)
    form = CommandForm(request.POST if request.method == "POST" else None, sessions=sessions)
    context: dict[str, object] = {"form": form, "examples": EXAMPLES, "nav": "commands"}
    if request.method != "POST" or not form.is_valid():
        return render(request, "memories/commands.html", context, status=400 if request.method == "POST" else 200)
    data = form.cleaned_data
    subject = {"tenant_id": person.tenant_id, "user_id": person.subject_id or ""}
    if not data["confirm"]:
        plan = command_plan(**subject, command=parse_command(data["text"]), session_id=data["session_id"])
        context.update(
            {
                "plan": plan,
                "intent_label": intent_label(plan.intent),
                "summary": plan_summary(plan),
                "needs_yes": plan.ready and plan.changes_anything,
                "memory_ids": ",".join(str(m.pk) for m in plan.memories),
            }
        )
        return render(request, "memories/commands.html", context)
    shown = form.selected_ids()
    try:
        result = command_run(
            **subject,
            actor=person.actor,
            text=data["text"],
            session_id=data["session_id"],
            confirm=True,
            only_ids=shown,
        )
    except ConfirmationError:
        messages.error(request, _("This request was already settled or has expired."))
        return redirect("memory-commands")
    plan = result.plan
    if shown and not result.changed and plan.intent != Intent.CLEAR_SESSION:
        messages.warning(
            request, _("Nothing was changed: the memories shown are no longer the ones this command finds.")
        )
        return redirect("memory-commands")
    rejected = result.write is not None and result.write.decision.kind == "reject"
    messages.add_message(request, messages.WARNING if rejected else messages.SUCCESS, result_summary(result))
    if plan.intent == Intent.REMEMBER and result.write is not None and result.write.confirmation is not None:
        return redirect("memory-inbox")
    return redirect("memory-commands" if plan.intent == Intent.DONT_SAVE else "my-memories")
