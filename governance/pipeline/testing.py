"""Builders for pipeline tests and evaluation: a default policy and a context from keyword arguments.

Plain data, no database: the pipeline's own tests and ``evaluate_policy`` build contexts the same way.
"""

from __future__ import annotations

from datetime import UTC, datetime

from governance.pipeline.base import (
    Actor,
    Candidate,
    ExistingMemory,
    PolicySnapshot,
    Scope,
    WriteContext,
)
from governance.pipeline.normalize import normalize_content
from governance.vocabulary import Level, MemoryType, Role, Sensitivity, SourceType

# The shipped default policy's values (fixtures/default_policy.json), as a snapshot.
DEFAULT_TTL: dict[str, int | None] = {
    MemoryType.USER_PREFERENCE: None,
    MemoryType.USER_PROFILE: None,
    MemoryType.CONSTRAINT: None,
    MemoryType.CORRECTION: None,
    MemoryType.ORGANIZATION_RULE: None,
    MemoryType.PROJECT_RULE: None,
    MemoryType.TASK_STATE: 7 * 24 * 3600,
    MemoryType.TOOL_RESULT_REF: 3600,
    MemoryType.TEMPORARY_CONTEXT: 24 * 3600,
}
FIXED_NOW = datetime(2026, 7, 7, 10, 0, tzinfo=UTC)

# A scope field per level, so that a test only names the level.
_DEFAULT_SCOPE_FIELDS: dict[Level, dict[str, str]] = {
    Level.SESSION: {"session_id": "s-1", "user_id": "u-1"},
    Level.TASK: {"task_id": "t-1", "user_id": "u-1"},
    Level.USER: {"user_id": "u-1"},
    Level.TEAM: {"team": "ai-platform"},
    Level.PROJECT: {"project": "ledger-api", "user_id": "u-1"},
    Level.TENANT: {},
}


def make_policy(**overrides: object) -> PolicySnapshot:
    values: dict[str, object] = {"version": 1, "ttl_by_type": dict(DEFAULT_TTL)}
    values.update(overrides)
    return PolicySnapshot(**values)  # type: ignore[arg-type]


def make_scope(level: Level | str, **fields: str) -> Scope:
    level = Level(level)
    return Scope(level=level, **{**_DEFAULT_SCOPE_FIELDS[level], **fields})


def make_existing(
    content: str,
    *,
    id: str = "m-1",
    type: MemoryType | str = MemoryType.USER_PREFERENCE,
    level: Level | str = Level.USER,
    scope: Scope | None = None,
    source_type: SourceType | str = SourceType.EXPLICIT_USER_REQUEST,
    confidence: float = 1.0,
    version: int = 1,
) -> ExistingMemory:
    return ExistingMemory(
        id=id,
        type=MemoryType(type),
        load_content=lambda: content,
        fingerprint=normalize_content(content),
        source_type=SourceType(source_type),
        confidence=confidence,
        scope=scope or make_scope(level),
        version=version,
    )


def make_context(
    content: str,
    *,
    type: MemoryType | str | None = None,
    level: Level | str = Level.USER,
    scope: Scope | None = None,
    source_type: SourceType | str = SourceType.EXPLICIT_USER_REQUEST,
    confidence: float = 0.9,
    sensitivity: Sensitivity | str | None = None,
    expires_at: datetime | None = None,
    actor: Actor | None = None,
    role: Role | str = Role.MEMBER,
    existing: tuple[ExistingMemory, ...] = (),
    policy: PolicySnapshot | None = None,
    now: datetime = FIXED_NOW,
) -> WriteContext:
    """A context whose fingerprint is the plain normalized content (the caller's HMAC is not needed)."""
    candidate = Candidate(
        content=content,
        scope=scope or make_scope(level),
        source_type=SourceType(source_type),
        type=MemoryType(type) if type else None,
        source_message_id="msg-1",
        confidence=confidence,
        sensitivity=Sensitivity(sensitivity) if sensitivity else None,
        expires_at=expires_at,
    )
    return WriteContext(
        candidate=candidate,
        actor=actor or Actor(role=Role(role), user_id="u-1"),
        policy=policy or make_policy(),
        now=now,
        fingerprint=normalize_content(content),
        existing=existing,
    )
