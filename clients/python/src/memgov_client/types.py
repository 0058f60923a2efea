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
    citation_id: str  # report it with ``memories.used()`` when the answer used this item
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


class Used(TypedDict):
    recorded: int  # uses counted now
    repeated: int  # citations reported before: counted once only


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


class Session(TypedDict):
    id: str
    user_id: str
    app: str
    workspace: str
    title: str | None
    state: str
    dont_save: bool
    parent_id: str | None
    fork_event_id: str | None
    leaf_id: str | None
    event_count: int
    tokens: dict[str, int]
    created_at: str
    last_active_at: str
    ended_at: str | None
    merged_state: NotRequired[dict[str, Any]]


class Event(TypedDict):
    id: str
    session_id: str
    seq: int
    parent_id: str | None
    kind: str
    content: str | None
    state_delta: dict[str, Any] | None
    tool_call_id: str
    task_id: str
    tokens: int
    meta: dict[str, Any] | None
    created_at: str


class Appended(TypedDict):
    events: list[dict[str, Any]]  # id, seq, parent_id, kind, tokens, created_at, kept
    leaf_id: str


class Branch(TypedDict):
    events: list[Event]
    has_more: bool
    next_leaf: str | None


class Popped(TypedDict):
    event: Event
    leaf_id: str | None


class SessionState(TypedDict):
    session_id: str
    at_event_id: str | None
    state: dict[str, Any]


class Projection(TypedDict):
    messages: list[dict[str, Any]]  # role, kind, content, event_id, seq, tool_call_id
    tokens: int
    summary_event_id: str | None
    omitted: int
    truncated: bool


class TaskState(TypedDict):
    task_id: str
    session_id: str
    status: str
    at_event_id: str | None
    goal: str
    current_step: str
    completed_steps: list[str]
    pending_fields: list[str]
    approval_status: str
    last_tool_result_id: str
    next_action: str


class Handoff(TypedDict):
    id: str
    session_id: str
    task_id: str
    user_id: str
    from_agent: str
    to_agent: str
    created_at: str
    task_state: dict[str, Any]
    memories: list[dict[str, Any]]
