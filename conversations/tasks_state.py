"""Task state (§5.3, §20.2) as data: its fields, their defaults, and where it lives in session state.

A task's state is the value of the session-state key ``task:<task_id>``, so it is changed only by
appended events and rebuilt at any event like the rest of the session's state.
"""

from __future__ import annotations

from typing import Any

from conversations.vocabulary import TASK_PREFIX, ApprovalStatus, TaskStatus

TASK_FIELDS: dict[str, Any] = {
    "goal": "",
    "current_step": "",
    "completed_steps": [],
    "pending_fields": [],
    "approval_status": ApprovalStatus.NONE.value,
    "last_tool_result_id": "",
    "next_action": "",
    "status": TaskStatus.OPEN.value,
}


def task_key(task_id: str) -> str:
    return f"{TASK_PREFIX}{task_id}"


def task_values(stored: dict[str, Any] | None) -> dict[str, Any]:
    """Every field, with defaults for what the stored object lacks."""
    stored = stored or {}
    return {name: stored.get(name, default) for name, default in TASK_FIELDS.items()}


def changed_fields(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    old = task_values(before)
    return sorted(name for name in TASK_FIELDS if old[name] != after.get(name, TASK_FIELDS[name]))
