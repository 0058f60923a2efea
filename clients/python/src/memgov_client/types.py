"""The shapes memgov answers with (docs/api.md), for type checkers: plain dicts at run time."""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar

T = TypeVar("T")

Level = Literal["session", "task", "user", "team", "project", "tenant"]


class WriteScope(TypedDict):
    level: Level
    user_id: NotRequired[str]
    team: NotRequired[str]
    project: NotRequired[str]
    session_id: NotRequired[str]
    task_id: NotRequired[str]


class Source(TypedDict):
    source_type: str
    source_message_id: NotRequired[str]


class ReadScope(TypedDict):
    user_id: str
    team: NotRequired[str]
    project: NotRequired[str]
    session_id: NotRequired[str]
    task_id: NotRequired[str]


class Decision(TypedDict):
    decision: Literal["save", "ask_confirmation", "reject"]
    reason_code: str
    reason: str
    memory_id: str | None
    confirmation_id: str | None
    confirm_by: str | None
    type: str | None
    sensitivity: str
    entity_types: list[str]
    expires_at: str | None
    deduplicated: bool
    conflict_with: str | None
    policy_version: int


class ContextItem(TypedDict):
    id: str
    ref: str
    type: str
    content: str
    scope: dict[str, str]
    block: str
    source: dict[str, str]
    confidence: float
    updated_at: str
    score: float
    score_parts: dict[str, float]
    tokens: int


class ContextResult(TypedDict):
    rendered: str
    items: list[ContextItem]
    conflicts: list[dict[str, Any]]
    token_count: int
    token_budget: int
    top_k: int
    language: str
    omitted: int


class Memory(TypedDict):
    id: str
    type: str
    content: str
    scope: dict[str, str]
    source: dict[str, str]
    confidence: float
    sensitivity: str
    retention_policy: str
    status: str
    version: int
    expires_at: str | None
    reason_code: str
    reason: str
    policy_version: int
    created_by: str
    reviewed_by: str
    last_used_at: str | None
    use_count: int
    created_at: str
    updated_at: str


class Page(TypedDict, Generic[T]):
    count: int
    next: str | None
    previous: str | None
    results: list[T]


class Confirmation(TypedDict):
    id: str
    state: str
    confirm_by: str
    memory_id: str
    memory_status: str


class CommandResult(TypedDict):
    intent: str
    intent_label: str
    language: str
    argument: str
    destructive: bool
    requires_confirmation: bool
    executed: bool
    missing: str
    message: str
    memories: list[Memory]
    changed: list[str]
    decision: dict[str, Any] | None


class TaskCompleted(TypedDict):
    task_id: str
    archived: int
    remaining: int
    states_archived: int
