"""The tenant admin's rule pages: the approval queue, one rule's page, approve / reject / revoke, propose.

Thin views: forms check input, selectors read, ``memories.services.rules`` decides and audits.
Only tenant admins (``governance.administer_tenant``) get here; everyone else gets the missing-page 404,
and a rule of another tenant is missing too. A refused action (four eyes, already settled) answers
409 with the rule's page and the reason; a form error 400. Approve, reject and revoke show their plan
first, naming the rule and its status before → after (``console.plans``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from console.access import ADMIN_PERM, ConsoleAccess, console_page
from console.forms_rules import ApproveForm, ProposeForm, ReasonForm
from console.nav import console_render
from console.plans import Change, Plan, plan_then_act
from governance.labels import LEVEL_LABELS, STATUS_LABELS, TYPE_LABELS, label
from governance.pipeline.base import InvalidCandidate
from governance.vocabulary import DecisionKind, Level, MemoryType
from memories.rule_selectors import (
    REVOCABLE,
    approvals_required,
    rule_confirmation,
    rule_decisions,
    rule_get,
    rule_proposal_get,
    rule_queue,
    rule_versions,
    rules_in_force,
)
from memories.services.rules import RuleError, rule_approve, rule_propose, rule_reject, rule_revoke

# Messages for the services' stable error codes, in the reader's language.
ERROR_MESSAGES = {
    "four_eyes": lambda: _("You proposed this rule, so another admin has to approve it (four eyes)."),
    "already_approved": lambda: _("You already approved this rule; a second admin has to approve it too."),
    "not_pending": lambda: _("This rule is not waiting for approval any more."),
    "expired": lambda: _("This proposal has expired; it has to be proposed again."),
    "not_in_force": lambda: _("Only a rule in force can be revoked."),
    "reason_required": lambda: _("Give a reason."),
    "not_proposable": lambda: _("Propose organization rules, or project rules for a team or the tenant."),
}


def _error_message(exc: RuleError) -> str:
    message = ERROR_MESSAGES.get(exc.code)
    return message() if message else str(exc)


@console_page(ADMIN_PERM)
@require_safe
def rule_queue_page(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    proposals = rule_queue(tenant_id=access.tenant.pk)
    context = {
        "console_page": "rules",
        "proposals": proposals,
        "rules": rules_in_force(tenant_id=access.tenant.pk),
        "approve_form": ApproveForm(),
        "reason_form": ReasonForm(),
    }
    return console_render(request, access, "console/rules.html", context)


def _detail_context(access: ConsoleAccess, memory_id: object) -> dict[str, Any]:
    """Everything the rule's page shows; Http404 if it isn't this tenant's rule."""
    tenant_id = access.tenant.pk
    proposal = rule_proposal_get(tenant_id=tenant_id, memory_id=memory_id)
    memory = proposal.memory if proposal else rule_get(tenant_id=tenant_id, memory_id=memory_id)
    if memory is None:
        raise Http404("no such rule")
    return {
        "console_page": "rules",
        "memory": memory,
        "proposal": proposal,
        "confirmation": rule_confirmation(tenant_id=tenant_id, memory_id=memory.pk),
        "decisions": list(rule_decisions(tenant_id=tenant_id, memory_id=memory.pk)),
        "versions": rule_versions(memory=memory),
        "revocable": memory.status in REVOCABLE and proposal is None,
        "approve_form": ApproveForm(),
        "reason_form": ReasonForm(),
    }


@console_page(ADMIN_PERM)
@require_safe
def rule_detail(request: HttpRequest, access: ConsoleAccess, memory_id: object) -> HttpResponse:
    return console_render(request, access, "console/rule_detail.html", _detail_context(access, memory_id))


def _refused(
    request: HttpRequest, access: ConsoleAccess, memory_id: object, *, status: int, error: str = "", **forms: Any
) -> HttpResponse:
    context = _detail_context(access, memory_id)
    context.update(forms)
    context["error"] = error
    return console_render(request, access, "console/rule_detail.html", context, status)


def _rule_plan(context: dict[str, Any], *, title: str, after: str, notes: list[str], confirm: str) -> Plan:
    """The plan of an action on the rule ``_detail_context`` found: the rule named, its status before → after."""
    memory = context["memory"]
    proposal = context["proposal"]
    content = proposal.content if proposal is not None else memory.readable_content
    where = label(LEVEL_LABELS, memory.level)
    if memory.team or memory.project:
        where = f"{where}: {memory.team or memory.project}"
    return Plan(
        title=title,
        subject=_("%(type)s for %(where)s: “%(content)s”")
        % {"type": label(TYPE_LABELS, memory.type), "where": where, "content": content or _("Unreadable rule")},
        changes=[Change(_("Status"), label(STATUS_LABELS, memory.status), after)],
        notes=notes,
        confirm_label=confirm,
        cancel_url=reverse("console:rule-detail", kwargs={"memory_id": memory.pk}),
        state=["rule", memory.pk, memory.status, memory.version, [d.pk for d in context["decisions"]]],
    )


def _approve_plan(context: dict[str, Any]) -> Plan:
    proposal = context["proposal"]
    if proposal is None:
        after, notes = _("In force"), []
    else:
        required = approvals_required(proposal.risk_topics)
        approvals = len(proposal.approvals) + 1
        if approvals >= required:
            after, notes = _("In force"), [_("Agents receive this rule from their next read on.")]
        else:
            after = _("Waiting for an admin (%(approvals)s of %(required)s approvals)") % {
                "approvals": approvals,
                "required": required,
            }
            notes = [_("This rule is high-risk: another admin has to approve it too before it is in force.")]
    return _rule_plan(
        context, title=_("Approve this rule?"), after=after, notes=notes, confirm=_("Yes, approve the rule")
    )


@console_page(ADMIN_PERM)
@require_POST
def rule_approve_action(request: HttpRequest, access: ConsoleAccess, memory_id: object) -> HttpResponse:
    context = _detail_context(access, memory_id)  # 404 before anything else if it isn't this tenant's rule
    form = ApproveForm(request.POST)
    if not form.is_valid():
        return _refused(request, access, memory_id, status=400, approve_form=form)
    proposal = context["proposal"]
    # Refused before any plan: no "yes" could make these succeed (the service refuses them too).
    if proposal is not None and proposal.proposer == access.actor:
        return _refused(request, access, memory_id, status=409, error=ERROR_MESSAGES["four_eyes"]())
    if proposal is not None and any(d.actor == access.actor for d in proposal.approvals):
        return _refused(request, access, memory_id, status=409, error=ERROR_MESSAGES["already_approved"]())

    def act() -> HttpResponse:
        try:
            outcome = rule_approve(
                tenant_id=access.tenant.pk, memory_id=memory_id, actor=access.actor, reason=form.cleaned_data["reason"]
            )
        except RuleError as exc:
            return _refused(request, access, memory_id, status=409, error=_error_message(exc))
        if outcome.activated:
            messages.success(request, _("Approved: the rule is in force and agents receive it from now on."))
        else:
            messages.success(
                request,
                _(
                    "Your approval is recorded (%(approvals)s of %(required)s). "
                    "Another admin has to approve this high-risk rule."
                )
                % {"approvals": outcome.approvals, "required": outcome.required},
            )
        return redirect("console:rules")

    return plan_then_act(request, access, _approve_plan(context), act, console_page="rules")


@console_page(ADMIN_PERM)
@require_POST
def rule_reject_action(request: HttpRequest, access: ConsoleAccess, memory_id: object) -> HttpResponse:
    context = _detail_context(access, memory_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return _refused(request, access, memory_id, status=400, reason_form=form)

    def act() -> HttpResponse:
        try:
            rule_reject(
                tenant_id=access.tenant.pk, memory_id=memory_id, actor=access.actor, reason=form.cleaned_data["reason"]
            )
        except RuleError as exc:
            return _refused(request, access, memory_id, status=409, error=_error_message(exc))
        messages.success(request, _("Rejected: the proposal is deleted and will not be used."))
        return redirect("console:rules")

    plan = _rule_plan(
        context,
        title=_("Reject this proposal?"),
        after=label(STATUS_LABELS, "deleted"),
        notes=[
            _("The proposal is deleted and never given to agents. Your reason is kept with the decision: %(reason)s")
            % {"reason": form.cleaned_data["reason"]}
        ],
        confirm=_("Yes, reject the proposal"),
    )
    return plan_then_act(request, access, plan, act, console_page="rules")


@console_page(ADMIN_PERM)
@require_POST
def rule_revoke_action(request: HttpRequest, access: ConsoleAccess, memory_id: object) -> HttpResponse:
    context = _detail_context(access, memory_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return _refused(request, access, memory_id, status=400, reason_form=form)

    def act() -> HttpResponse:
        try:
            rule_revoke(
                tenant_id=access.tenant.pk, memory_id=memory_id, actor=access.actor, reason=form.cleaned_data["reason"]
            )
        except RuleError as exc:
            return _refused(request, access, memory_id, status=409, error=_error_message(exc))
        messages.success(request, _("Revoked: agents no longer receive this rule."))
        return redirect("console:rule-detail", memory_id=memory_id)

    plan = _rule_plan(
        context,
        title=_("Revoke this rule?"),
        after=_("Revoked"),
        notes=[
            _("Agents no longer receive it, from their next read on. Its history stays. Your reason: %(reason)s")
            % {"reason": form.cleaned_data["reason"]}
        ],
        confirm=_("Yes, revoke the rule"),
    )
    return plan_then_act(request, access, plan, act, console_page="rules")


@console_page(ADMIN_PERM)
@require_http_methods(["GET", "POST"])
def rule_propose_page(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    """GET: the form. POST: the proposal goes through the write pipeline and waits for another admin."""
    form = ProposeForm(request.POST if request.method == "POST" else None, tenant_id=access.tenant.pk)
    context: dict[str, Any] = {"console_page": "rules", "form": form}
    if request.method != "POST":
        return console_render(request, access, "console/rule_propose.html", context)
    if not form.is_valid():
        return console_render(request, access, "console/rule_propose.html", context, 400)
    data = form.cleaned_data
    try:
        result = rule_propose(
            tenant_id=access.tenant.pk,
            proposer=access.membership,
            content=data["content"],
            type=MemoryType(data["type"]),
            level=Level(data["level"]),
            team=data.get("team") or "",
            project=data.get("project") or "",
        )
    except InvalidCandidate as exc:
        form.add_error("content", exc.message)
        return console_render(request, access, "console/rule_propose.html", context, 400)
    except RuleError as exc:
        form.add_error("level", _error_message(exc))
        return console_render(request, access, "console/rule_propose.html", context, 400)
    if result.decision.kind == DecisionKind.ASK_CONFIRMATION and result.memory is not None:
        messages.success(request, _("Proposed. It takes effect once another admin approves it."))
        return redirect("console:rule-detail", memory_id=result.memory.pk)
    context["decision"] = result.decision
    return console_render(request, access, "console/rule_propose.html", context, 422)
