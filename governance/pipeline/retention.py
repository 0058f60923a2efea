"""Stage 8 — how long a saved memory lives (§14.2, rules 8 and 11), and the final decision.

- ``expires_at = now + policy.ttl_by_type[type]``; ``None`` (or a type the policy doesn't list)
  means no expiry: the user controls it.
- In session/task scope a type without a TTL of its own (a preference kept for this session)
  takes the TTL of what that scope normally holds — temporary_context for a session, task_state
  for a task — so nothing in a short-term scope outlives it by policy accident.
- High sensitivity in session/task scope is capped at ``policy.high_sensitivity_ttl`` (rule 8).
- The candidate's own ``expires_at`` only ever shortens the result.
- ``ask_confirmation`` gets no expiry here: the caller sets the pending expiry from
  ``policy.pending_confirmation_ttl`` and computes the lasting one on confirmation.

This stage ends the pipeline: it raises :class:`Stop` with the final decision.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from governance.pipeline.base import PolicySnapshot, Stop, WriteContext
from governance.vocabulary import SHORT_TERM_LEVELS, DecisionKind, Level, MemoryType, Sensitivity

_SCOPE_DEFAULT_TYPE = {Level.SESSION: MemoryType.TEMPORARY_CONTEXT, Level.TASK: MemoryType.TASK_STATE}


class RetentionStage:
    name = "retention"

    def run(self, ctx: WriteContext) -> WriteContext:
        if ctx.provisional is None:
            raise RuntimeError("retention reached without a provisional decision; a stage is missing")
        expires_at = None
        if ctx.provisional == DecisionKind.SAVE:
            expires_at = expires_at_for(ctx)
        code, reason = ctx.provisional_reason
        raise Stop(ctx.with_(expires_at=expires_at).decide(ctx.provisional, code, reason))


def expires_at_for(ctx: WriteContext) -> datetime | None:
    """When a memory saved from ``ctx`` expires under the policy, or None for no expiry."""
    limits = [ctx.candidate.expires_at] if ctx.candidate.expires_at is not None else []
    return expiry_under_policy(
        ctx.policy,
        level=ctx.candidate.scope.level,
        type=ctx.type,
        sensitivity=ctx.sensitivity,
        now=ctx.now,
        limits=limits,
    )


def expiry_under_policy(
    policy: PolicySnapshot,
    *,
    level: Level,
    type: MemoryType | None,
    sensitivity: Sensitivity,
    now: datetime,
    limits: list[datetime] | None = None,
) -> datetime | None:
    """The earliest of the policy's TTL for this type and level, the high-sensitivity cap of short-term
    scopes, and ``limits``; None when none applies. Edits use it too: a new text or type may shorten a
    memory's life, never lengthen it."""
    limits = list(limits or ())
    ttl = policy.ttl_by_type.get(type) if type else None
    if ttl is None and level in _SCOPE_DEFAULT_TYPE:
        ttl = policy.ttl_by_type.get(_SCOPE_DEFAULT_TYPE[level])
    if ttl is not None:
        limits.append(now + timedelta(seconds=ttl))
    if level in SHORT_TERM_LEVELS and sensitivity.rank >= Sensitivity.HIGH.rank:
        limits.append(now + timedelta(seconds=policy.high_sensitivity_ttl))
    return min(limits, default=None)
