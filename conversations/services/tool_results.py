"""Tool results (§14.1): raw results stay in the session; what else happens depends on the result's type.

- query: may be kept as a dated ``tool_result_ref`` memory with an expiry, through the write pipeline
  (rule 5 lets an untrusted source write only that, short-lived, in session or task scope);
- write: the fact goes to the audit log, never to memory;
- approval: into the task state (``approval_status``) and the audit log;
- error: stays in the session.

A tool result that names a task also becomes the task's ``last_tool_result_id``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from audit.events import Event as AuditKind
from conversations.models import Event, Session
from conversations.services.audit import session_audit
from conversations.services.errors import SessionInputError
from conversations.tasks_state import changed_fields, task_key, task_values
from conversations.validation import check_text
from conversations.vocabulary import ApprovalStatus, TaskStatus, ToolResultType
from governance.models import AgentClient
from governance.pipeline.base import Candidate, InvalidCandidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType
from memories.services.write import WriteResult, memory_write

if TYPE_CHECKING:
    from conversations.selectors.events import Position
    from conversations.services.events import NewEvent, _Batch


@dataclass(frozen=True)
class KeepAsMemory:
    content: str
    expires_at: datetime | None = None


@dataclass(frozen=True)
class ToolResult:
    type: ToolResultType | str = ToolResultType.QUERY
    approval_status: ApprovalStatus | str | None = None
    keep: KeepAsMemory | None = None

    def check(self, where: str, *, task_id: str) -> None:
        try:
            kind = ToolResultType(self.type)
        except ValueError:
            choices = ", ".join(t.value for t in ToolResultType)
            raise SessionInputError(f"{where}.type", f"unknown type; use one of {choices}") from None
        if kind == ToolResultType.APPROVAL:
            if not task_id:
                raise SessionInputError(f"{where}.type", "an approval result needs the event's task_id")
            try:
                ApprovalStatus(self.approval_status or "")
            except ValueError:
                choices = ", ".join(s.value for s in ApprovalStatus if s != ApprovalStatus.NONE)
                raise SessionInputError(f"{where}.approval_status", f"use one of {choices}") from None
        elif self.approval_status is not None:
            raise SessionInputError(f"{where}.approval_status", "only an approval result has one")
        if self.keep is not None:
            if kind != ToolResultType.QUERY:
                raise SessionInputError(f"{where}.keep", "only a query result may be kept as memory")
            check_text(f"{where}.keep.content", self.keep.content)
            if not self.keep.content.strip():
                raise SessionInputError(f"{where}.keep.content", "say what to keep")

    def audits(self, *, session: Session, event_id: uuid.UUID, new: NewEvent, actor: str) -> list[dict]:
        """The audit log's share of this result: a write's or an approval's fact (ids and codes only)."""
        kind = ToolResultType(self.type)
        if kind not in (ToolResultType.WRITE, ToolResultType.APPROVAL):
            return []
        return [
            session_audit(
                session=session,
                event=AuditKind.AUDIT_FACT_RECORDED,
                actor=actor,
                reason_code=f"tool_{kind.value}_result",
                event_id=str(event_id),
                tool_call_id=new.tool_call_id or None,
                task_id=new.task_id or None,
                approval_status=str(self.approval_status) if self.approval_status else None,
            )
        ]


@dataclass
class Effect:
    delta: dict[str, Any] = field(default_factory=dict)
    audits: list[dict] = field(default_factory=list)


def tool_result_effects(
    *, batch: _Batch, session: Session, parent: Position | None, new: NewEvent, event_id: uuid.UUID, actor: str
) -> Effect:
    """The change a task's tool result makes to its task state (in this same event's delta), and the audit."""
    assert new.tool_result is not None
    effect = Effect(audits=new.tool_result.audits(session=session, event_id=event_id, new=new, actor=actor))
    key = task_key(new.task_id)
    before = batch.state_at(parent).get(key)
    after = task_values(before)
    if after["status"] == TaskStatus.ARCHIVED:
        return effect  # a finished task's state is kept as it was
    after["last_tool_result_id"] = str(event_id)
    if ToolResultType(new.tool_result.type) == ToolResultType.APPROVAL:
        after["approval_status"] = ApprovalStatus(new.tool_result.approval_status or "").value
    effect.delta[key] = after
    effect.audits.append(
        task_state_audit(
            session=session, task_id=new.task_id, event_id=event_id, before=before, after=after, actor=actor
        )
    )
    return effect


def task_state_audit(
    *, session: Session, task_id: str, event_id: uuid.UUID, before: dict | None, after: dict, actor: str
) -> dict:
    return session_audit(
        session=session,
        event=AuditKind.TASK_STATE_CHANGED,
        actor=actor,
        task_id=task_id,
        event_id=str(event_id),
        changed=changed_fields(before, after),
        approval_status=after["approval_status"],
        status=after["status"],
    )


def keep_tool_result(
    *, session: Session, event: Event, new: NewEvent, actor: str, agent: AgentClient | None
) -> WriteResult:
    """A query result kept as a dated ``tool_result_ref`` memory, through the write pipeline (its source:
    this event). Invalid input (too long for the policy, …) is the append's 400: nothing is stored."""
    assert new.tool_result is not None and new.tool_result.keep is not None
    keep = new.tool_result.keep
    dated = f"{keep.content.strip()} (as of {event.created_at:%Y-%m-%d %H:%M} UTC)"
    level = Level.TASK if new.task_id else Level.SESSION
    candidate = Candidate(
        content=dated,
        scope=Scope(level, user_id=session.user_id, session_id=str(session.pk), task_id=new.task_id),
        source_type=SourceType.TOOL_RESULT,
        type=MemoryType.TOOL_RESULT_REF,
        source_message_id=str(event.pk),
        expires_at=keep.expires_at,
    )
    try:
        return memory_write(
            tenant_id=session.tenant_id, candidate=candidate, actor_label=actor, agent=agent, session_id=str(session.pk)
        )
    except InvalidCandidate as exc:
        raise SessionInputError(f"tool_result.keep.{exc.field}", exc.message) from None
