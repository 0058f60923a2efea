"""Stage 2 — rule 2: the person's own controls come before anything the content says (§12.3).

A paused memory, an agent the person switched off, or a "don't save this session" rejects every write,
whatever its scope or source.
"""

from __future__ import annotations

from governance.pipeline.base import Stop, WriteContext
from governance.pipeline.reasons import ReasonCode
from governance.vocabulary import DecisionKind


class ConsentStage:
    name = "consent"

    def run(self, ctx: WriteContext) -> WriteContext:
        if ctx.actor.memory_paused:
            raise Stop(ctx.decide(DecisionKind.REJECT, ReasonCode.USER_PAUSED, "The user has paused memory."))
        if ctx.actor.agent_blocked:
            raise Stop(
                ctx.decide(
                    DecisionKind.REJECT,
                    ReasonCode.SUBJECT_BLOCKED_AGENT,
                    "The user has switched this agent off: it may not use or add to their memories.",
                )
            )
        if ctx.actor.session_opt_out:
            raise Stop(
                ctx.decide(
                    DecisionKind.REJECT,
                    ReasonCode.SESSION_OPT_OUT,
                    "The user asked not to save anything from this session.",
                )
            )
        return ctx
