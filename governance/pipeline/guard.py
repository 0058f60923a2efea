"""Stage 5 — rules 4, 5, 6, 7 in that order: poisoning, untrusted sources, audit-only facts, rules.

- Rule 4: content that loosens safety, permission, approval, audit or filter behaviour is rejected
  (``policy_override``) whoever sends it — an admin too: a memory must never be the channel that
  changes policy (§13). Tightening ("never deploy without review") passes.
  Where no lexicon names an override, the learned classifier (:mod:`governance.pipeline.injection_model`)
  gives a second opinion on content that could carry one — content that instructs or addresses the
  assistant or sets a standing order, whoever sends it — unless a later rule rejects it anyway. Its
  verdict rejects with ``injection_classifier`` (rule 4 as well); a plain statement of fact is not
  asked about.
- Rule 5: ``tool_result``/``web_content``/``document_content`` may only write a ``tool_result_ref``
  or ``task_state`` in session or task scope (``untrusted_source``, §13.1).
- Rule 6: records of authorizations, approvals, payments/refunds, production operations and
  security alerts belong to the audit log (``audit_only``, §7.4) — at every scope, task scope
  included, because the table puts rule 6 before rule 11.
- Rule 7: an ``organization_rule`` at any level, or a project rule at team/tenant level or shared
  at project level (no ``user_id``: given to every member of the project), needs a tenant admin (or
  the owner of that team, for team scope); it is then provisionally ``ask_confirmation`` by another
  admin (four eyes), else ``not_authorized``. A subject's own project memory is not shared.
  Where the table is silent: any other lasting memory at team or tenant scope (a "team preference",
  a constraint for the whole tenant) is shared exactly like a rule, so it takes the same path.
  Short-lived types there fall through to the confirmation stage, which rejects them as transient.
"""

from __future__ import annotations

from governance.pipeline.base import Candidate, Scope, Stop, WriteContext
from governance.pipeline.injection_model import THRESHOLD, injection_score
from governance.pipeline.language import unread_stop
from governance.pipeline.lexicons.actor import actor_reading
from governance.pipeline.lexicons.answer_shape import names_a_control, only_orders_that_shape_the_answer
from governance.pipeline.lexicons.audit_only import find_audit_only_fact
from governance.pipeline.lexicons.directive import addresses_assistant, instructs, standing
from governance.pipeline.lexicons.intent import (
    addressed_to_ai,
    conduct_on_controls,
    injection_intent,
    instructs_assistant,
    sets_assistant_conduct,
)
from governance.pipeline.lexicons.loosening import only_orders_that_keep_person_deciding
from governance.pipeline.lexicons.override import find_policy_override
from governance.pipeline.lexicons.provenance import provenance_readings
from governance.pipeline.lexicons.text import prepare, without_polite_tag
from governance.pipeline.reasons import ReasonCode
from governance.vocabulary import (
    LONG_TERM_LEVELS,
    RULE_TYPES,
    SHORT_LIVED_TYPES,
    SHORT_TERM_LEVELS,
    UNTRUSTED_SOURCES,
    DecisionKind,
    Level,
    MemoryType,
    Role,
    Sensitivity,
)

# What an untrusted source may write, and only in session/task scope (§14.2: a dated reference).
_UNTRUSTED_MAY_WRITE = frozenset({MemoryType.TOOL_RESULT_REF, MemoryType.TASK_STATE})
_SHARED_LEVELS = frozenset({Level.TEAM, Level.TENANT})


class GuardStage:
    name = "guard"

    def run(self, ctx: WriteContext) -> WriteContext:
        candidate = ctx.candidate
        level = candidate.scope.level
        memory_type = ctx.type or candidate.type

        # An agent's provenance heading ("…，未经确认——") is a label, not words aimed at the assistant.
        views = tuple(dict.fromkeys(view for text in candidate.readings for view in provenance_readings(text)))
        # What the content says the assistant does ("the agent grants them access …") is also read as the order.
        as_orders = tuple(filter(None, map(actor_reading, views)))
        override = next(filter(None, map(find_policy_override, (*views, *as_orders))), None)
        override = override or next(filter(None, map(injection_intent, (*views, *as_orders))), None)
        if override is None and candidate.source_type in UNTRUSTED_SOURCES and _carries_instructions(candidate):
            override = "untrusted_instruction"
        if override is None and level in LONG_TERM_LEVELS:
            # The turned-around default: an instruction about the assistant's conduct that acts on a
            # control (rules, approvals, audit, verification) is never a memory, unless it keeps the
            # person in the decision.
            touched = next(filter(None, map(conduct_on_controls, views)), None)
            override = f"conduct on {touched}" if touched else None
        # A polite tag ("…，可以吗？") is not what the classifier should weigh: it reads the request without it.
        untagged = tuple(map(without_polite_tag, views))
        if override is None and _ask_classifier(ctx, memory_type) and injection_score(untagged) >= THRESHOLD:
            raise Stop(
                ctx.with_(notes=(*ctx.notes, "policy override: injection classifier")).decide(
                    DecisionKind.REJECT,
                    ReasonCode.INJECTION_CLASSIFIER,
                    "The content reads as an instruction to change how the assistant is governed; "
                    "memory cannot carry that.",
                )
            )
        if override:
            raise Stop(
                ctx.with_(notes=(*ctx.notes, f"policy override: {override}")).decide(
                    DecisionKind.REJECT,
                    ReasonCode.POLICY_OVERRIDE,
                    "The content tries to change safety, permission or approval rules; memory cannot do that.",
                )
            )

        if candidate.source_type in UNTRUSTED_SOURCES and not (
            memory_type in _UNTRUSTED_MAY_WRITE and level in SHORT_TERM_LEVELS
        ):
            raise Stop(
                ctx.decide(
                    DecisionKind.REJECT,
                    ReasonCode.UNTRUSTED_SOURCE,
                    f"Content from {candidate.source_type} may only be kept as a short-lived task reference.",
                )
            )
        if candidate.source_type in UNTRUSTED_SOURCES and candidate.unread_language:
            # Rule 4 reads untrusted content for instructions; in a language it can't read, it can't.
            raise unread_stop(ctx, candidate.unread_language)

        fact = find_audit_only_fact(candidate.screened)
        if fact:
            raise Stop(
                ctx.with_(notes=(*ctx.notes, f"audit-only fact: {fact}")).decide(
                    DecisionKind.REJECT,
                    ReasonCode.AUDIT_ONLY,
                    "This is a record for the audit log, not something to remember.",
                )
            )

        if _needs_admin(memory_type, candidate.scope):
            if _may_propose_shared(ctx):
                return ctx.with_(
                    provisional=DecisionKind.ASK_CONFIRMATION,
                    provisional_reason=(
                        ReasonCode.NEEDS_ADMIN_APPROVAL,
                        "Shared rules take effect once another admin approves them.",
                    ),
                    confirm_by="admin",
                )
            raise Stop(
                ctx.decide(
                    DecisionKind.REJECT,
                    ReasonCode.NOT_AUTHORIZED,
                    "Only a tenant admin, or the team's owner for a team, may propose shared rules.",
                )
            )
        return ctx


def _carries_instructions(candidate: Candidate) -> bool:
    """Untrusted content that speaks to the AI reading it, asks to be remembered, or gives the
    assistant a standing order or a norm by name: an injection, whatever it asks (§13.1). A tool result is data; it
    never instructs. (A bare imperative — "click here", "run 4471 passed" — is not enough.) Read as
    screened and, when it holds encoded spans, decoded; not as leetspeak (digits in data are data)."""
    texts = (candidate.screened, candidate.decoded) if candidate.decoded else (candidate.screened,)
    return any(addressed_to_ai(text) or instructs_assistant(text) or sets_assistant_conduct(text) for text in texts)


def _ask_classifier(ctx: WriteContext, memory_type: MemoryType | None) -> bool:
    """Whether the classifier's verdict counts: on content that gives the assistant an instruction,
    speaks to it, or sets a standing order (a plain statement about the person, "I'm a security
    engineer", or a tool's status line is not asked about), and only where no later rule rejects it
    anyway — untrusted content outside what rule 5 lets it write, high-sensitivity content in a
    long-term scope (rule 8) — so that those keep their own reason."""
    candidate = ctx.candidate
    level = candidate.scope.level
    if candidate.source_type in UNTRUSTED_SOURCES and not (
        memory_type in _UNTRUSTED_MAY_WRITE and level in SHORT_TERM_LEVELS
    ):
        return False
    if level in LONG_TERM_LEVELS and ctx.sensitivity in (Sensitivity.HIGH, Sensitivity.RESTRICTED):
        return False
    prepared = [prepare(text) for text in (candidate.screened, candidate.decoded) if text]
    # A bare "you" asks nothing of the assistant ("did you ice it?"), unless the text names a control, its setup,
    # a secret or a privilege ("you already switched the content checks off for me").
    if not any(
        instructs(text) or standing(text) or (addresses_assistant(text) and names_a_control(text)) for text in prepared
    ):
        return False
    # Rules that keep the person in the decision ("先给我看一眼", "stop and hand it back to me") are tightenings,
    # and the lexicons found nothing in them that loosens a control: not asked about, when every clause that
    # gives an order is one.
    # Nor orders that only put a part of the answer somewhere ("give me the command first, then the explanation").
    return not all(
        only_orders_that_keep_person_deciding(text) or only_orders_that_shape_the_answer(text) for text in prepared
    )


def _shared(scope: Scope) -> bool:
    """Team and tenant memories are shared; a project memory is shared when it names no subject (a
    subject's own project memory is theirs alone, and the read path gives it to nobody else)."""
    return scope.level in _SHARED_LEVELS or (scope.level == Level.PROJECT and not scope.user_id)


def _needs_admin(memory_type: MemoryType | None, scope: Scope) -> bool:
    if memory_type == MemoryType.ORGANIZATION_RULE:
        return True
    if _shared(scope):
        # The table names RULE_TYPES; every other lasting type is shared the same way (see above).
        return memory_type in RULE_TYPES or memory_type not in SHORT_LIVED_TYPES
    return False


def _may_propose_shared(ctx: WriteContext) -> bool:
    actor, scope = ctx.actor, ctx.candidate.scope
    if actor.role == Role.TENANT_ADMIN:
        return True
    return actor.role == Role.TEAM_OWNER and scope.level == Level.TEAM and scope.team in actor.owned_teams
