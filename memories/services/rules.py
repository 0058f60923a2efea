"""Rule approvals: approve, reject, revoke and propose shared rules — four eyes, six for high risk.

- Nobody approves their own proposal (``confirmation_accept`` refuses too; this refuses first, with
  a clearer message, and before anything is recorded).
- A high-risk rule (security, permissions, approvals, money: ``rule_risk_topics``) needs two
  approvals from two different admins: the first is recorded as a :class:`RuleDecision`, the second
  activates the rule through ``confirmation_accept``. An ordinary rule is activated by one.
- Reasons are what a person typed: stored encrypted on the decision row; the audit event carries
  the decision's id, codes and counts only.
- A revoked rule is archived: the read path injects active rules only, so it stops at once.
- A console proposal goes through the real write pipeline (``memory_write``, source
  ``admin_console``, on behalf of the admin's subject id) and lands in the same queue.

Each action runs in one transaction with its audit events. Who may call these is the caller's
business (the console checks ``governance.administer_tenant``; the agent API its own rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.models import Membership
from governance.pipeline.base import Candidate, Scope
from governance.pipeline.lexicons.rule_risk import rule_risk_topics
from governance.vocabulary import Level, MemoryType, SourceType
from memories.models import Confirmation, Memory, RuleDecision
from memories.rule_selectors import REVOCABLE, approvals_required, rule_filter
from memories.services.confirmations import ConfirmationError, confirmation_accept, confirmation_decline
from memories.services.records import memory_archive
from memories.services.write import WriteResult, memory_write

REASON_MAX_CHARS = 1000


class RuleError(ValueError):
    """The action can't be taken; ``code`` is stable (tests and the UI key on it), the message explains."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ApprovalOutcome:
    activated: bool
    approvals: int
    required: int
    decision: RuleDecision


def _clean_reason(reason: str, *, required: bool) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise RuleError("reason_required", "Give a reason: it is kept with the decision.")
    if len(reason) > REASON_MAX_CHARS:
        raise RuleError("reason_too_long", f"Keep the reason under {REASON_MAX_CHARS} characters.")
    return reason


def _lock_pending(tenant_id: int, memory_id: object) -> Confirmation:
    """The rule's pending admin confirmation, locked: concurrent approvals are counted one after another."""
    confirmation = (
        Confirmation.objects.select_for_update(of=("self",))
        .select_related("memory", "memory__agent")
        .filter(tenant_id=tenant_id, memory_id=memory_id, confirm_by="admin")
        .first()
    )
    if confirmation is None or confirmation.state != Confirmation.State.PENDING:
        raise RuleError("not_pending", "This rule is not waiting for approval any more.")
    if confirmation.expires_at <= timezone.now():
        raise RuleError("expired", "This proposal has expired; it has to be proposed again.")
    return confirmation


def _audit(memory: Memory, *, event: Event, actor: str, decision: RuleDecision, **details: object) -> None:
    audit_record(
        tenant_id=memory.tenant_id,
        event=event,
        actor=actor,
        memory_id=memory.pk,
        memory_type=memory.type,
        scope=memory.level,
        subject_id=memory.user_id,
        sensitivity=memory.sensitivity,
        source_message_id=memory.source_message_id,
        requires_confirmation=True,
        approved_by=actor if event == Event.RULE_APPROVED else "",
        agent_version=memory.agent.name if memory.agent_id else "",
        policy_version=memory.policy_version,
        details={"decision_id": decision.pk, "version": memory.version, **details},
    )


@transaction.atomic
def rule_approve(*, tenant_id: int, memory_id: object, actor: str, reason: str = "") -> ApprovalOutcome:
    """Record ``actor``'s approval; activate the rule once it has the approvals its risk requires."""
    reason = _clean_reason(reason, required=False)
    confirmation = _lock_pending(tenant_id, memory_id)
    if actor == confirmation.requested_by:
        raise RuleError("four_eyes", "You proposed this rule, so another admin has to approve it (four eyes).")
    memory = confirmation.memory
    topics = rule_risk_topics(memory.content)
    required = approvals_required(topics)
    try:
        with transaction.atomic():
            decision = RuleDecision.objects.create(
                tenant_id=tenant_id,
                memory=memory,
                kind=RuleDecision.Kind.APPROVE,
                actor=actor,
                reason=reason or None,
                memory_version=memory.version,
                high_risk=bool(topics),
            )
    except IntegrityError as exc:
        raise RuleError(
            "already_approved", "You already approved this rule; a second admin has to approve it too."
        ) from exc
    approvals = RuleDecision.objects.filter(memory=memory, kind=RuleDecision.Kind.APPROVE).count()
    activated = approvals >= required
    if activated:
        try:
            memory = confirmation_accept(confirmation=confirmation, actor=actor, by_agent=False)
        except ConfirmationError as exc:  # four eyes or expiry, re-checked under the same lock
            raise RuleError("not_pending", str(exc)) from exc
    _audit(
        memory,
        event=Event.RULE_APPROVED,
        actor=actor,
        decision=decision,
        approvals=approvals,
        required=required,
        activated=activated,
        risk_topics=[topic.value for topic in topics],
    )
    return ApprovalOutcome(activated=activated, approvals=approvals, required=required, decision=decision)


@transaction.atomic
def rule_reject(*, tenant_id: int, memory_id: object, actor: str, reason: str) -> RuleDecision:
    """Turn the proposal down (it is deleted, and purged later); the reason is required and kept encrypted.

    The proposer may reject their own proposal: withdrawing needs no second pair of eyes.
    """
    reason = _clean_reason(reason, required=True)
    confirmation = _lock_pending(tenant_id, memory_id)
    memory = confirmation.memory
    try:
        confirmation_decline(confirmation=confirmation, actor=actor)
    except ConfirmationError as exc:
        raise RuleError("not_pending", str(exc)) from exc
    decision = RuleDecision.objects.create(
        tenant_id=tenant_id,
        memory=memory,
        kind=RuleDecision.Kind.REJECT,
        actor=actor,
        reason=reason,
        memory_version=memory.version,
        high_risk=bool(rule_risk_topics(memory.content)),
    )
    memory.refresh_from_db(fields=["status"])
    _audit(
        memory, event=Event.RULE_REJECTED, actor=actor, decision=decision, withdrawn=actor == confirmation.requested_by
    )
    return decision


@transaction.atomic
def rule_revoke(*, tenant_id: int, memory_id: object, actor: str, reason: str) -> RuleDecision:
    """Take an approved rule out of force: archived, so the read path stops injecting it at once."""
    reason = _clean_reason(reason, required=True)
    memory = (
        Memory.objects.select_for_update(of=("self",))
        .select_related("agent")
        .filter(rule_filter(), tenant_id=tenant_id, pk=memory_id)
        .first()
    )
    if memory is None or memory.status not in REVOCABLE:
        raise RuleError("not_in_force", "Only a rule in force can be revoked.")
    memory = memory_archive(memory=memory, actor=actor, reason_code="rule_revoked")
    decision = RuleDecision.objects.create(
        tenant_id=tenant_id,
        memory=memory,
        kind=RuleDecision.Kind.REVOKE,
        actor=actor,
        reason=reason,
        memory_version=memory.version,
        high_risk=bool(rule_risk_topics(memory.content)),
    )
    _audit(memory, event=Event.RULE_REVOKED, actor=actor, decision=decision)
    return decision


# What the console offers to propose: every choice here needs an admin's approval in the pipeline
# (rule 7), so a console proposal can never take effect on its proposer's word alone.
PROPOSABLE = {
    MemoryType.ORGANIZATION_RULE: (Level.TENANT, Level.TEAM, Level.PROJECT),
    MemoryType.PROJECT_RULE: (Level.TENANT, Level.TEAM),
}


def rule_propose(
    *,
    tenant_id: int,
    proposer: Membership,
    content: str,
    type: MemoryType,
    level: Level,
    team: str = "",
    project: str = "",
) -> WriteResult:
    """An admin's proposal, through the real write pipeline: it waits in the queue for another admin.

    Raises ``InvalidCandidate`` (rule 1) like any write; the pipeline may also reject it (e.g. content
    that loosens approvals, or restricted data) — the result says so.
    """
    if level not in PROPOSABLE.get(type, ()):
        raise RuleError("not_proposable", "Propose organization rules, or project rules for a team or the tenant.")
    candidate = Candidate(
        content=content,
        scope=Scope(level, team=team if level == Level.TEAM else "", project=project if level == Level.PROJECT else ""),
        source_type=SourceType.ADMIN_CONSOLE,
        type=type,
        confidence=1.0,
    )
    return memory_write(
        tenant_id=tenant_id,
        candidate=candidate,
        actor_label=f"user:{proposer.user.get_username()}",
        on_behalf_of=proposer.subject_id,
    )
