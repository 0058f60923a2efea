"""The words of sessions: lifecycle states and their moves, event kinds, roles in a projection, tool results."""

from __future__ import annotations

from enum import StrEnum


class SessionState(StrEnum):
    CREATED = "created"  # an id and metadata, no event yet
    ACTIVE = "active"
    SUSPENDED = "suspended"
    COMPACTING = "compacting"  # a summary is being made; appends still land
    ENDED = "ended"


# Seed 000 §18.1's state machine; "ended" is reachable from every state and leads nowhere.
TRANSITIONS: dict[SessionState, frozenset[SessionState]] = {
    SessionState.CREATED: frozenset({SessionState.ACTIVE, SessionState.SUSPENDED, SessionState.ENDED}),
    SessionState.ACTIVE: frozenset({SessionState.SUSPENDED, SessionState.COMPACTING, SessionState.ENDED}),
    SessionState.SUSPENDED: frozenset({SessionState.ACTIVE, SessionState.ENDED}),
    SessionState.COMPACTING: frozenset({SessionState.ACTIVE, SessionState.ENDED}),
    SessionState.ENDED: frozenset(),
}
# What a client may ask for with PATCH ``state``: suspend, resume, end.
REQUESTABLE_STATES = (SessionState.ACTIVE, SessionState.SUSPENDED, SessionState.ENDED)


class EventKind(StrEnum):
    SYSTEM_MESSAGE = "system_message"  # the app's instructions: never a source of memory
    DEVELOPER_MESSAGE = "developer_message"  # likewise (seed 000 §18.4 drops developer-role messages)
    USER_MESSAGE = "user_message"
    ASSISTANT_MESSAGE = "assistant_message"
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    STATE_DELTA = "state_delta"
    COMPACTION = "compaction"
    BRANCH_SUMMARY = "branch_summary"
    LABEL = "label"
    MODEL_CHANGE = "model_change"
    HANDOFF = "handoff"


# Written by memgov itself (session_compact), never appended by a client.
SERVICE_KINDS = frozenset({EventKind.COMPACTION})
APPENDABLE_KINDS = tuple(kind for kind in EventKind if kind not in SERVICE_KINDS)

# How an event appears in the projection for the next model call; kinds not named here (state
# changes, labels, model changes) are bookkeeping and never sent to a model.
PROJECTED_ROLES: dict[EventKind, str] = {
    EventKind.SYSTEM_MESSAGE: "system",
    EventKind.DEVELOPER_MESSAGE: "developer",
    EventKind.USER_MESSAGE: "user",
    EventKind.ASSISTANT_MESSAGE: "assistant",
    EventKind.TOOL_CALL: "assistant",
    EventKind.TOOL_RESULT: "tool",
    EventKind.BRANCH_SUMMARY: "system",
    EventKind.HANDOFF: "system",
    EventKind.COMPACTION: "system",
}
# Tokens a model reads from what a person or a tool said, and what it wrote itself.
OUTPUT_KINDS = frozenset({EventKind.ASSISTANT_MESSAGE, EventKind.TOOL_CALL})


class ToolResultType(StrEnum):
    """§14.1: what a tool result is, which decides where it goes besides the session."""

    QUERY = "query"  # stays in the session; may be kept as a dated tool_result_ref memory
    WRITE = "write"  # the fact goes to the audit log, never to memory
    APPROVAL = "approval"  # into the task state and the audit log
    ERROR = "error"  # stays in the session only


class ApprovalStatus(StrEnum):
    NONE = "none"
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


class TaskStatus(StrEnum):
    OPEN = "open"
    ARCHIVED = "archived"  # the task was completed; its state is kept, read-only


# State key prefixes (trpc-agent-go's scopes): app state is shared by every user of the app in the
# tenant, user state follows the subject across their sessions of that app, anything else is the
# session's own. ``task:`` keys are session state written only through the task-state service.
APP_PREFIX = "app:"
USER_PREFIX = "user:"
TASK_PREFIX = "task:"

# The choice sets the OpenAPI document names (config/settings.py ENUM_NAME_OVERRIDES).
SESSION_STATE_VALUES = [s.value for s in SessionState]
REQUESTED_STATE_VALUES = [s.value for s in REQUESTABLE_STATES]
TOOL_RESULT_TYPE_VALUES = [t.value for t in ToolResultType]
APPROVAL_STATUS_VALUES = [s.value for s in ApprovalStatus]
APPROVAL_OUTCOME_VALUES = [s.value for s in ApprovalStatus if s != ApprovalStatus.NONE]
