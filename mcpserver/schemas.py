"""The tools' arguments, with the REST API's names and limits (api/memories/write_serializers.py,
context_views.py), so an agent that knows one knows the other. The SDK turns them into the JSON schemas
``tools/list`` shows and checks every call against them; a bad argument is a tool error naming the field."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

from django.conf import settings
from pydantic import BaseModel, ConfigDict, Field

from governance.vocabulary import Level, MemoryType, Sensitivity, SourceType

Id = Annotated[str, Field(max_length=128)]
MAX_CONTENT_CHARS = 20_000  # the parser's ceiling; the tenant's policy sets the real limit (default 2,000)
MAX_TEXT = 8000
MAX_TOP_K = 50
MAX_EVENT_CHARS = int(settings.MEMGOV_SESSION_MAX_EVENT_CHARS)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WriteScope(_Strict):
    level: Level = Field(description="who may read it: session, task, user, team, project or tenant")
    user_id: Id = Field("", description="the subject: the tenant's own id for the person it is about")
    team: Id = ""
    project: Id = ""
    session_id: Id = ""
    task_id: Id = ""


class Source(_Strict):
    source_type: SourceType = Field(
        description="where it came from; explicit_user_request when the person asked you to remember it, "
        "user_statement when they only said it, agent_inference for what you concluded"
    )
    source_message_id: Id = Field("", description="the message it came from")


class ReadScope(_Strict):
    user_id: Id = Field(description="the subject whose memory to read")
    team: Annotated[str, Field(max_length=63)] = ""
    project: Id = Field("", description="where the subject is working: its memories and shared rules")
    session_id: Id = ""
    task_id: Id = ""


ContentArg = Annotated[str, Field(max_length=MAX_CONTENT_CHARS, description="the memory, in the person's words")]
TypeArg = Annotated[MemoryType | None, Field(description="omit to let memgov classify it")]
ConfidenceArg = Annotated[float, Field(ge=0.0, le=1.0, description="how sure you are, 0 to 1")]
SensitivityArg = Annotated[Sensitivity | None, Field(description="omit to let memgov judge it")]
ExpiresArg = Annotated[datetime | None, Field(description="ISO 8601; the policy may shorten it")]
QueryArg = Annotated[str, Field(max_length=MAX_TEXT, description="what the next answer is about")]
TopKArg = Annotated[int, Field(ge=1, le=MAX_TOP_K)]
BudgetArg = Annotated[int, Field(ge=64, le=32000, description="tokens the rendered block may use")]
LimitArg = Annotated[int, Field(ge=1, le=500)]
OffsetArg = Annotated[int, Field(ge=0)]


class EventArg(_Strict):
    """One session event, as the Sessions API takes it (POST /api/v1/sessions/{id}/events)."""

    kind: str = Field(
        description="user_message, assistant_message, tool_call, tool_result, state_delta, branch_summary, label, "
        "model_change or handoff"
    )
    content: Annotated[str, Field(max_length=MAX_EVENT_CHARS)] | None = None
    state_delta: dict[str, Any] | None = Field(None, description="changes; a null value removes the key")
    parent_id: UUID | None = Field(None, description="default: after the previous event (the session's leaf)")
    tool_call_id: Id = ""
    task_id: Id = ""


TaskText = Annotated[str, Field(max_length=2000)]
StepsArg = Annotated[tuple[TaskText, ...], Field(max_length=100)]
