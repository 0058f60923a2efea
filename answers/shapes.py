"""The answers to a write, a memory, a context read, the sessions operations and handoffs, for REST and MCP alike
(tests/mcpserver/test_mcp_tools.py calls both surfaces and compares the answers)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.utils import timezone

from conversations.models import Event, Session
from conversations.selectors.context import Projection
from conversations.selectors.events import StoredEvent
from conversations.services.events import Appended
from conversations.state import loads
from handoffs.services import HandoffContext
from memories.models import Memory
from memories.read.context import ContextResult
from memories.services.write import WriteResult


def _when(value: datetime | None) -> str | None:
    if value is None:
        return None
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def local_when(value: datetime | None) -> str | None:
    """A time as DRF's DateTimeField writes it, in the current time zone (UTC unless MEMGOV_TIME_ZONE names
    another): the REST API's session answers, which drf-spectacular documents from their serializers."""
    return None if value is None else _when(timezone.localtime(value))


def decision_out(result: WriteResult) -> dict[str, Any]:
    decision = result.decision
    return {
        "decision": decision.kind.value,
        "reason_code": decision.reason_code,
        "reason": decision.reason,
        "memory_id": str(result.memory.pk) if result.memory else None,
        "confirmation_id": str(result.confirmation.pk) if result.confirmation else None,
        "confirm_by": decision.confirm_by,
        "type": decision.type.value if decision.type else None,
        "sensitivity": decision.sensitivity.value,
        "entity_types": list(decision.entity_types),
        "expires_at": _when(decision.expires_at),
        "deduplicated": decision.deduplicated,
        "conflict_with": str(decision.conflict_with) if decision.conflict_with else None,
        "conflict_aspect": decision.conflict_aspect,
        "policy_version": decision.policy_version,
    }


def memory_out(memory: Memory) -> dict[str, Any]:
    scope = {"level": memory.level}
    for name in ("user_id", "team", "project", "session_id", "task_id"):
        if getattr(memory, name):
            scope[name] = getattr(memory, name)
    return {
        "id": str(memory.pk),
        "type": memory.type,
        # An unreadable record (a broken ciphertext, a shredded key) is listed as such, never a failure.
        "content": memory.readable_content,
        "readable": memory.readable_content is not None,
        "scope": scope,
        "source": {
            "source_type": memory.source_type,
            "source_message_id": memory.source_message_id,
            "agent": memory.agent.name if memory.agent_id else "",
        },
        "confidence": memory.confidence,
        "sensitivity": memory.sensitivity,
        "retention_policy": memory.retention_policy,
        "status": memory.status,
        "version": memory.version,
        "expires_at": _when(memory.expires_at),
        "reason_code": memory.reason_code,
        "reason": memory.reason,
        "policy_version": memory.policy_version,
        "created_by": memory.created_by,
        "reviewed_by": memory.reviewed_by,
        "last_used_at": _when(memory.last_used_at),
        "use_count": memory.use_count,
        "created_at": _when(memory.created_at),
        "updated_at": _when(memory.updated_at),
    }


def context_out(result: ContextResult) -> dict[str, Any]:
    items = []
    for item in result.items:
        scope = {"level": item.level}
        for name in ("team", "project", "session_id", "task_id"):
            if getattr(item, name):
                scope[name] = getattr(item, name)
        items.append(
            {
                "id": str(item.id),
                "citation_id": item.citation_id,
                "ref": item.ref,
                "type": item.type,
                "content": item.content,
                "scope": scope,
                "block": item.block,
                "source": {"source_type": item.source_type, "source_message_id": item.source_message_id},
                "confidence": item.confidence,
                "updated_at": _when(item.updated_at),
                "score": item.score,
                "score_parts": {
                    "relevance": item.relevance,
                    "lexical": item.lexical,
                    "semantic": item.semantic,
                    "recency": item.recency,
                    "confidence": item.confidence,
                    "trust": item.trust,
                },
                "cosine": item.cosine,
                "why": list(item.why),
                "matched_terms": list(item.matched),
                "tokens": item.tokens,
            }
        )
    refs = {item.id: item.ref for item in result.items}
    conflicts = [
        {
            "memory_id": str(c.conflict.memory_id),
            "ref": refs[c.conflict.memory_id],
            "memory_type": c.conflict.memory_type,
            "dimension": c.conflict.dimension,
            "memory_says": c.conflict.memory_stance,
            "instruction_says": c.conflict.instruction_stance,
            "resolution": "follow_current_instruction",
            "suggestion": c.suggestion,
        }
        for c in result.conflicts
    ]
    return {
        "rendered": result.rendered,
        "items": items,
        "conflicts": conflicts,
        "token_count": result.token_count,
        "token_budget": result.token_budget,
        "top_k": result.top_k,
        "standing_k": result.standing_k,
        "language": result.language,
        "omitted": result.omitted,
        "ranking": result.ranking,
    }


def session_out(
    session: Session, *, state: dict[str, Any] | None = None, when: Callable[[datetime | None], str | None] = _when
) -> dict[str, Any]:
    """GET /api/v1/sessions/{id}'s answer, with the merged ``state``; without it, a session as a list shows it."""
    out = {
        "id": str(session.pk),
        "user_id": session.user_id,
        "app": session.app,
        "workspace": session.workspace,
        "title": session.title,
        "state": session.state,
        "dont_save": session.dont_save,
        "parent_id": _str(session.parent_id),
        "fork_event_id": _str(session.fork_event_id),
        "leaf_id": _str(session.leaf_id),
        "event_count": session.event_count,
        "tokens": {"input": session.input_tokens, "output": session.output_tokens, "total": session.total_tokens},
        "created_at": when(session.created_at),
        "last_active_at": when(session.last_active_at),
        "ended_at": when(session.ended_at),
    }
    if state is not None:
        out["merged_state"] = state
    return out


def event_out(event: Event | StoredEvent) -> dict[str, Any]:
    """One event as the Sessions API shows it (content opened: the caller may read it)."""
    return {
        "id": str(event.pk),
        "session_id": str(event.session_id),
        "seq": event.seq,
        "parent_id": _str(event.parent_id),
        "kind": event.kind,
        "content": event.content,
        "state_delta": loads(event.state_delta),
        "tool_call_id": event.tool_call_id,
        "task_id": event.task_id,
        "tokens": event.tokens,
        "meta": event.meta,
        "created_at": _when(event.created_at),
    }


def appended_out(item: Appended) -> dict[str, Any]:
    event = item.event
    kept = None
    if item.kept is not None:
        memory = item.kept.memory
        kept = {
            "decision": item.kept.decision.kind.value,
            "reason_code": item.kept.decision.reason_code,
            "memory_id": _str(memory.pk if memory else None),
        }
    return {
        "id": str(event.pk),
        "seq": event.seq,
        "parent_id": _str(event.parent_id),
        "kind": event.kind,
        "tokens": event.tokens,
        "created_at": _when(event.created_at),
        "kept": kept,
    }


def projection_out(projection: Projection) -> dict[str, Any]:
    messages = []
    for message in projection.messages:
        out = {**message, "event_id": str(message["event_id"])}
        messages.append(out)
    return {
        "messages": messages,
        "tokens": projection.tokens,
        "summary_event_id": _str(projection.summary_event_id),
        "omitted": projection.omitted,
        "truncated": projection.truncated,
    }


def task_out(values: dict[str, Any], *, task_id: str, session_id: object, at_event_id: object) -> dict[str, Any]:
    return {**values, "task_id": task_id, "session_id": str(session_id), "at_event_id": _str(at_event_id)}


def handoff_out(context: HandoffContext) -> dict[str, Any]:
    """A handoff as its receiving agent reads it (POST /api/v1/handoffs answers the same to its sender)."""
    handoff = context.handoff
    return {
        "id": str(handoff.pk),
        "session_id": str(handoff.session_id),
        "task_id": handoff.task_id,
        "user_id": handoff.user_id,
        "from_agent": handoff.from_agent.name,
        "to_agent": handoff.to_agent.name,
        "created_at": _when(handoff.created_at),
        "task_state": context.task_state,
        "memories": [
            {
                "id": str(memory.id),
                "type": memory.type,
                "level": memory.level,
                "content": memory.content,
                "source_type": memory.source_type,
                "confidence": memory.confidence,
                "sensitivity": memory.sensitivity,
                "updated_at": _when(memory.updated_at),
            }
            for memory in context.memories
        ],
    }


def _str(value: object) -> str | None:
    return None if value is None else str(value)
