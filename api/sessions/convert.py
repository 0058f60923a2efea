"""Between the API's validated data and the services' dataclasses, and events back to plain data."""

from __future__ import annotations

from typing import Any

from conversations.models import Event
from conversations.services.events import Appended, NewEvent
from conversations.services.tool_results import KeepAsMemory, ToolResult
from conversations.state import loads


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


def event_data(event: Event) -> dict[str, Any]:
    return {
        "id": event.pk,
        "session_id": event.session_id,
        "seq": event.seq,
        "parent_id": event.parent_id,
        "kind": event.kind,
        "content": event.content,
        "state_delta": loads(event.state_delta),
        "tool_call_id": event.tool_call_id,
        "task_id": event.task_id,
        "tokens": event.tokens,
        "meta": event.meta,
        "created_at": event.created_at,
    }


def appended_data(item: Appended) -> dict[str, Any]:
    event = item.event
    kept = None
    if item.kept is not None:
        decision = item.kept.decision
        memory = item.kept.memory
        kept = {
            "decision": decision.kind,
            "reason_code": decision.reason_code,
            "memory_id": memory.pk if memory else None,
        }
    return {
        "id": event.pk,
        "seq": event.seq,
        "parent_id": event.parent_id,
        "kind": event.kind,
        "tokens": event.tokens,
        "created_at": event.created_at,
        "kept": kept,
    }
