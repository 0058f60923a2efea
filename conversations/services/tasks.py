"""Task state (§5.3, §20.2): changed only by appending an event, so every change is recorded and the
state is recoverable at any event; completing a task archives its memories and its state."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from audit.services import audit_append
from conversations.models import Event, Session
from conversations.selectors.tasks import task_state_get
from conversations.services.errors import SessionInputError, SessionStateError
from conversations.services.events import NewEvent, session_events_append
from conversations.services.locking import session_lock
from conversations.services.tool_results import task_state_audit
from conversations.tasks_state import TASK_FIELDS, task_key, task_values
from conversations.validation import check_ident, check_text
from conversations.vocabulary import ApprovalStatus, EventKind, SessionState, TaskStatus
from memories.lifecycle.archive import task_complete as task_memories_archive

LIST_MAX = 100
TEXT_MAX = 2000


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(values) - set(TASK_FIELDS) - {"status"})
    if unknown:
        raise SessionInputError(unknown[0], "not a task state field")
    clean = task_values(values)
    for name in ("goal", "current_step", "next_action", "last_tool_result_id"):
        if not isinstance(clean[name], str):
            raise SessionInputError(name, "must be text")
        check_text(name, clean[name], limit=TEXT_MAX)
    for name in ("completed_steps", "pending_fields"):
        items = clean[name]
        if not isinstance(items, list) or len(items) > LIST_MAX or not all(isinstance(i, str) for i in items):
            raise SessionInputError(name, f"must be a list of at most {LIST_MAX} texts")
        for item in items:
            check_text(name, item, limit=TEXT_MAX)
    try:
        ApprovalStatus(clean["approval_status"])
    except ValueError:
        raise SessionInputError("approval_status", f"use one of {', '.join(s.value for s in ApprovalStatus)}") from None
    if clean["status"] != TaskStatus.OPEN:
        raise SessionInputError("status", "a task is archived by completing it, not by writing its state")
    return clean


def task_state_update(
    *, tenant_id: int, session_id: uuid.UUID, task_id: str, values: dict[str, Any], actor: str
) -> tuple[Event, dict[str, Any]]:
    """Replace the task's state in this session (every field; omitted ones take their defaults) by
    appending a ``state_delta`` event; audited as ``task_state_changed`` with the changed field names."""
    check_ident("task_id", task_id, required=True)
    after = _checked(values)
    with transaction.atomic():
        session = session_lock(tenant_id=tenant_id, session_id=session_id)
        before = task_state_get(session=session, task_id=task_id)
        if before is not None and before.values["status"] == TaskStatus.ARCHIVED:
            raise SessionStateError("the task was completed: its state is archived", code="archived")
        event = _append(session, task_id, after, actor)
        audit_append(
            [
                task_state_audit(
                    session=session,
                    task_id=task_id,
                    event_id=event.pk,
                    before=before.values if before else None,
                    after=after,
                    actor=actor,
                )
            ]
        )
    return event, after


def _append(session: Session, task_id: str, values: dict[str, Any], actor: str) -> Event:
    appended = session_events_append(
        tenant_id=session.tenant_id,
        session_id=session.pk,
        events=[NewEvent(kind=EventKind.STATE_DELTA, state_delta={task_key(task_id): values}, task_id=task_id)],
        actor=actor,
        internal=True,
    )
    return appended[0].event


@dataclass(frozen=True)
class TaskCompletion:
    task_id: str
    found: int  # task memories and task states of this task in the tenant
    archived: int  # memories archived by this call
    remaining: int
    states_archived: int


def task_complete(*, tenant_id: int, task_id: str, actor: str) -> TaskCompletion:
    """The task is finished: archive its task-scope memories (``memories.lifecycle.archive``) and, in every
    live session that holds its state, append the change that archives the state (kept, read-only)."""
    memories = task_memories_archive(tenant_id=tenant_id, task_id=task_id, actor=actor)
    session_ids = (
        Event.objects.filter(tenant_id=tenant_id, task_id=task_id, session__deleted_at__isnull=True)
        .values_list("session_id", flat=True)
        .distinct()
    )
    found = archived = 0
    for session_id in list(session_ids):
        with transaction.atomic():
            session = session_lock(tenant_id=tenant_id, session_id=session_id)
            current = task_state_get(session=session, task_id=task_id)
            if current is None:
                continue
            found += 1
            if current.values["status"] == TaskStatus.ARCHIVED or session.state == SessionState.ENDED:
                continue
            after = {**current.values, "status": TaskStatus.ARCHIVED.value}
            event = _append(session, task_id, after, actor)
            audit_append(
                [
                    task_state_audit(
                        session=session,
                        task_id=task_id,
                        event_id=event.pk,
                        before=current.values,
                        after=after,
                        actor=actor,
                    )
                ]
            )
            archived += 1
    return TaskCompletion(task_id, memories.found + found, memories.archived, memories.remaining, archived)
