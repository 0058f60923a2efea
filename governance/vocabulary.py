"""The closed vocabularies of memgov: memory types, scope levels, sources, sensitivities, roles.

These names are a contract with agents (DESIGN.md); the database stores them as plain strings.
"""

from __future__ import annotations

from enum import StrEnum


class MemoryType(StrEnum):
    USER_PREFERENCE = "user_preference"
    USER_PROFILE = "user_profile"
    TASK_STATE = "task_state"
    TOOL_RESULT_REF = "tool_result_ref"
    CONSTRAINT = "constraint"
    CORRECTION = "correction"
    TEMPORARY_CONTEXT = "temporary_context"
    ORGANIZATION_RULE = "organization_rule"
    PROJECT_RULE = "project_rule"


# Named in the OpenAPI document (config/settings.py ENUM_NAME_OVERRIDES): another set has a "type" field too.
MEMORY_TYPE_VALUES = [t.value for t in MemoryType]


class Level(StrEnum):
    SESSION = "session"
    TASK = "task"
    USER = "user"
    TEAM = "team"
    PROJECT = "project"
    TENANT = "tenant"


class SourceType(StrEnum):
    EXPLICIT_USER_REQUEST = "explicit_user_request"
    EXPLICIT_USER_CONFIRMATION = "explicit_user_confirmation"
    USER_STATEMENT = "user_statement"
    REPEATED_USER_BEHAVIOR = "repeated_user_behavior"
    AGENT_INFERENCE = "agent_inference"
    TASK_STATE_MACHINE = "task_state_machine"
    TOOL_RESULT = "tool_result"
    HUMAN_AGENT_CORRECTION = "human_agent_correction"
    EVALUATION_FEEDBACK = "evaluation_feedback"
    WEB_CONTENT = "web_content"
    DOCUMENT_CONTENT = "document_content"
    ADMIN_CONSOLE = "admin_console"


class Sensitivity(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    RESTRICTED = "restricted"

    @property
    def rank(self) -> int:
        return _SENSITIVITY_ORDER.index(self)


_SENSITIVITY_ORDER = [Sensitivity.LOW, Sensitivity.MEDIUM, Sensitivity.HIGH, Sensitivity.RESTRICTED]


def max_sensitivity(*levels: Sensitivity) -> Sensitivity:
    return max(levels, key=lambda s: s.rank, default=Sensitivity.LOW)


class Role(StrEnum):
    MEMBER = "member"
    TEAM_OWNER = "team_owner"
    TENANT_ADMIN = "tenant_admin"
    COMPLIANCE_OFFICER = "compliance_officer"
    AGENT = "agent"


class Status(StrEnum):
    PENDING_CONFIRMATION = "pending_confirmation"
    PENDING_APPROVAL = "pending_approval"
    ACTIVE = "active"
    PAUSED = "paused"
    ARCHIVED = "archived"
    EXPIRED = "expired"
    DELETED = "deleted"


class DecisionKind(StrEnum):
    SAVE = "save"
    ASK_CONFIRMATION = "ask_confirmation"
    REJECT = "reject"


# §13.1: content from outside the conversation never writes long-term memory.
UNTRUSTED_SOURCES = frozenset({SourceType.TOOL_RESULT, SourceType.WEB_CONTENT, SourceType.DOCUMENT_CONTENT})
# Sources where the person themself asked for, or confirmed, the memory.
EXPLICIT_SOURCES = frozenset(
    {
        SourceType.EXPLICIT_USER_REQUEST,
        SourceType.EXPLICIT_USER_CONFIRMATION,
        SourceType.HUMAN_AGENT_CORRECTION,
        SourceType.ADMIN_CONSOLE,
    }
)
LONG_TERM_LEVELS = frozenset({Level.USER, Level.TEAM, Level.PROJECT, Level.TENANT})
SHORT_TERM_LEVELS = frozenset({Level.SESSION, Level.TASK})
SHARED_LEVELS = frozenset({Level.TEAM, Level.PROJECT, Level.TENANT})
SHORT_LIVED_TYPES = frozenset({MemoryType.TEMPORARY_CONTEXT, MemoryType.TASK_STATE, MemoryType.TOOL_RESULT_REF})
RULE_TYPES = frozenset({MemoryType.ORGANIZATION_RULE, MemoryType.PROJECT_RULE})


class AgentScope(StrEnum):
    """What an agent key may call (REST endpoints and MCP tools alike); governance/scopes.py lists each."""

    MEMORY_READ = "memory.read"
    MEMORY_WRITE = "memory.write"
    MEMORY_MANAGE = "memory.manage"
    MEMORY_CONFIRM = "memory.confirm"
    SESSIONS_READ = "sessions.read"
    SESSIONS_WRITE = "sessions.write"
    HANDOFFS_READ = "handoffs.read"


# A retrieval-only agent: it reads what it is given and changes nothing.
READ_ONLY_SCOPES = frozenset({AgentScope.MEMORY_READ, AgentScope.SESSIONS_READ})
