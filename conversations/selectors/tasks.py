"""Task state as stored in a session's state (key ``task:<id>``), at the leaf or at any event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conversations.models import Event, Session
from conversations.selectors.events import Position
from conversations.selectors.state import leaf_position, state_at_position
from conversations.tasks_state import task_key, task_values


@dataclass(frozen=True)
class TaskState:
    task_id: str
    session_id: str
    values: dict[str, Any]
    at_event_id: str | None  # the event the state was read at


def task_known(*, tenant_id: int, task_id: str) -> bool:
    """Whether any session of the tenant holds an event of this task."""
    return Event.objects.filter(tenant_id=tenant_id, task_id=task_id).exists()


def task_state_get(*, session: Session, task_id: str, at: Position | None = None) -> TaskState | None:
    """The task's state in this session at ``at`` (default: the leaf), or None if it has none there."""
    position = at if at is not None else leaf_position(session)
    stored = state_at_position(tenant_id=session.tenant_id, position=position).get(task_key(task_id))
    if stored is None:
        return None
    return TaskState(task_id, str(session.pk), task_values(stored), str(position.id) if position else None)
