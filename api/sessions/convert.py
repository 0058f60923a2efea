"""From the API's validated data to the services' dataclasses (the answers are answers/shapes.py's)."""

from __future__ import annotations

from typing import Any

from conversations.services.events import NewEvent
from conversations.services.tool_results import KeepAsMemory, ToolResult


def new_event(data: dict[str, Any]) -> NewEvent:
    spec = data.get("tool_result")
    tool_result = None
    if spec is not None:
        keep = spec.get("keep")
        tool_result = ToolResult(
            type=spec.get("type", "query"),
            approval_status=spec.get("approval_status"),
            keep=KeepAsMemory(keep["content"], keep.get("expires_at")) if keep else None,
        )
    return NewEvent(
        kind=data["kind"],
        content=data.get("content"),
        state_delta=data.get("state_delta"),
        parent_id=data.get("parent_id"),
        tool_call_id=data.get("tool_call_id", ""),
        task_id=data.get("task_id", ""),
        tool_result=tool_result,
    )
