"""Stage 6 — rules 8 to 11: may it be kept, and does someone have to confirm it first?

Sets a *provisional* decision (with reason and ``confirm_by``) rather than stopping, so that dedup
and conflict detection (rule 12) and retention can refine it; rejections stop the pipeline. A
decision already made by an earlier rule (rule 7's admin approval) is left alone: first match wins.

Long-term scope (user, project; team/tenant reach here only with short-lived types):

- rule 8: high sensitivity → reject ``too_sensitive_for_long_term``.
- rule 9: transient content → reject ``transient``. Where the table is silent: a short-lived type
  (temporary_context, task_state, tool_result_ref) written to a long-term scope is a one-off detail
  by definition (§7.3), so it is rejected as ``transient`` too.
- rule 10, by source: explicit (explicit_user_request, explicit_user_confirmation,
  human_agent_correction, admin_console) → save; user_statement, repeated_user_behavior,
  evaluation_feedback → ask the user; agent_inference → ask the user at or above
  ``policy.min_inference_confidence``, reject ``low_confidence`` below.
  Where the table is silent: ``task_state_machine`` writing long-term memory is machinery, not the
  person — it is treated like agent_inference (confidence threshold, then the user confirms).

Short-term scope (session, task):

- rules 9 and 11: short-lived types are saved (``short_lived``); retention gives the type's TTL,
  capped for high sensitivity (rule 8's "saved with a short TTL").
- Where the table is silent: a long-term type in session/task scope (a preference stated "for this
  task", §7.1's "constraints the user gives this turn") lives and dies with that session or task,
  so it is saved without confirmation (``session_scoped``) — except an agent_inference below the
  confidence threshold, which is rejected ``low_confidence`` at any scope.
"""

from __future__ import annotations

from governance.pipeline.base import Stop, WriteContext
from governance.pipeline.language import unread_stop
from governance.pipeline.lexicons.conflict import has_style_aspect
from governance.pipeline.lexicons.intent import behavioural_instruction, names_work_convention
from governance.pipeline.reasons import ReasonCode
from governance.vocabulary import (
    EXPLICIT_SOURCES,
    LONG_TERM_LEVELS,
    SHORT_LIVED_TYPES,
    UNTRUSTED_SOURCES,
    DecisionKind,
    Sensitivity,
    SourceType,
)

# Sources whose claim about the person is a guess: the person confirms, or it is not kept.
_INFERRED_WITH_THRESHOLD = frozenset({SourceType.AGENT_INFERENCE, SourceType.TASK_STATE_MACHINE})


class ConfirmationStage:
    name = "confirmation"

    def run(self, ctx: WriteContext) -> WriteContext:
        if ctx.provisional is not None:
            return ctx
        if ctx.candidate.scope.level in LONG_TERM_LEVELS:
            return _long_term(ctx)
        return _short_term(ctx)


def _long_term(ctx: WriteContext) -> WriteContext:
    candidate = ctx.candidate
    if ctx.sensitivity.rank >= Sensitivity.HIGH.rank:
        raise Stop(
            ctx.decide(
                DecisionKind.REJECT,
                ReasonCode.TOO_SENSITIVE_FOR_LONG_TERM,
                "Accounts, money, permissions and health, legal or financial details are not kept long-term.",
            )
        )
    if ctx.transient or ctx.type in SHORT_LIVED_TYPES:
        raise Stop(
            ctx.decide(
                DecisionKind.REJECT,
                ReasonCode.TRANSIENT,
                "This is a question or a request for now, not something to remember long-term."
                if ctx.asks_now
                else "This is a passing or one-off detail, not something to remember long-term.",
            )
        )
    if candidate.unread_language:
        # The gate's checks for instructions read English and Chinese; it keeps nothing long-term it
        # couldn't check. The agent can restate the memory in one of them.
        raise unread_stop(ctx, candidate.unread_language)
    source = candidate.source_type
    if source in EXPLICIT_SOURCES:
        return _save(ctx, ReasonCode.EXPLICIT_REQUEST, "The user asked for this to be remembered.")
    if source in UNTRUSTED_SOURCES:  # the guard stops these first; kept so this stage is safe alone
        raise Stop(
            ctx.decide(DecisionKind.REJECT, ReasonCode.UNTRUSTED_SOURCE, "Untrusted content is not kept long-term.")
        )
    if source in _INFERRED_WITH_THRESHOLD and candidate.confidence < ctx.policy.min_inference_confidence:
        raise _low_confidence(ctx)
    return ctx.with_(
        provisional=DecisionKind.ASK_CONFIRMATION,
        provisional_reason=(
            ReasonCode.NEEDS_USER_CONFIRMATION,
            "The user did not ask to remember this; it is kept only if they confirm.",
        ),
        confirm_by="user",
    )


def _short_term(ctx: WriteContext) -> WriteContext:
    if ctx.type in SHORT_LIVED_TYPES:
        return _save(ctx, ReasonCode.SHORT_LIVED, "Kept for this session or task only, with a time limit.")
    candidate = ctx.candidate
    if (
        candidate.source_type == SourceType.AGENT_INFERENCE
        and candidate.confidence < ctx.policy.min_inference_confidence
    ):
        raise _low_confidence(ctx)
    return _save(ctx, ReasonCode.SESSION_SCOPED, "Kept for this session or task only.")


def _save(ctx: WriteContext, code: ReasonCode, reason: str) -> WriteContext:
    if ctx.candidate.requires_confirmation or _behavioural(ctx):
        return ctx.with_(
            provisional=DecisionKind.ASK_CONFIRMATION,
            provisional_reason=(
                ReasonCode.NEEDS_USER_CONFIRMATION,
                "This is kept only once the user confirms it"
                + (" (the agent asked for confirmation)." if ctx.candidate.requires_confirmation else "."),
            ),
            confirm_by="user",
        )
    return ctx.with_(provisional=DecisionKind.SAVE, provisional_reason=(code, reason), confirm_by=None)


def _behavioural(ctx: WriteContext) -> bool:
    """A long-term memory telling the assistant how to *act* that names no preference aspect: the
    person confirms it first (issue 19's default for behavioural instructions)."""
    if ctx.candidate.scope.level not in LONG_TERM_LEVELS or ctx.type in SHORT_LIVED_TYPES:
        return False
    text = ctx.candidate.screened
    return (
        behavioural_instruction(text)
        and not has_style_aspect(text, ctx.candidate.aspects)
        and not names_work_convention(text)
    )


def _low_confidence(ctx: WriteContext) -> Stop:
    return Stop(
        ctx.decide(
            DecisionKind.REJECT,
            ReasonCode.LOW_CONFIDENCE,
            "The agent's inference is too uncertain to keep.",
        )
    )
