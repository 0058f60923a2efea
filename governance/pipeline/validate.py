"""Stage 1 — rule 1: the checks on a candidate that need the tenant's policy.

Shape (known type/level/source, JSON types) is the API serializer's job; this stage checks what
only the policy and the clock know. A failure raises :class:`InvalidCandidate` — answered as a 4xx,
with no decision and nothing stored — rather than a reject decision.
"""

from __future__ import annotations

import math

from governance.pipeline.base import InvalidCandidate, WriteContext
from governance.vocabulary import Level

# The scope field that names whose memory it is, per level; without it the memory has no owner.
REQUIRED_SCOPE_FIELD: dict[Level, str | None] = {
    Level.SESSION: "session_id",
    Level.TASK: "task_id",
    Level.USER: "user_id",
    Level.TEAM: "team",
    Level.PROJECT: "project",
    Level.TENANT: None,
}


class ValidateStage:
    name = "validate"

    def run(self, ctx: WriteContext) -> WriteContext:
        candidate = ctx.candidate
        content = candidate.content
        if not content or not content.strip():
            raise InvalidCandidate("content", "must not be empty")
        if len(content) > ctx.policy.max_content_chars:
            raise InvalidCandidate("content", f"must be at most {ctx.policy.max_content_chars} characters")
        confidence = candidate.confidence
        if isinstance(confidence, bool) or math.isnan(confidence) or not 0.0 <= confidence <= 1.0:
            raise InvalidCandidate("confidence", "must be a number between 0 and 1")
        required = REQUIRED_SCOPE_FIELD[candidate.scope.level]
        if required and not getattr(candidate.scope, required).strip():
            raise InvalidCandidate(f"scope.{required}", f"is required for {candidate.scope.level} scope")
        expires_at = candidate.expires_at
        if expires_at is not None:
            if expires_at.tzinfo is None:
                raise InvalidCandidate("expires_at", "must include a time zone")
            if expires_at <= ctx.now:
                raise InvalidCandidate("expires_at", "must be in the future")
        return ctx
