"""What the tools answer: the REST API's JSON, field for field (tests/mcpserver/test_parity.py holds them
to it), built from the same service results."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memories.models import Memory
from memories.read.context import ContextResult
from memories.services.write import WriteResult


def _when(value: datetime | None) -> str | None:
    if value is None:
        return None
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


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
        "content": memory.content,
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
                "ref": item.ref,
                "type": item.type,
                "content": item.content,
                "scope": scope,
                "block": item.block,
                "source": {"source_type": item.source_type, "source_message_id": item.source_message_id},
                "confidence": item.confidence,
                "updated_at": _when(item.updated_at),
                "score": item.score,
                "score_parts": {"relevance": item.relevance, "recency": item.recency, "trust": item.trust},
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
        "language": result.language,
        "omitted": result.omitted,
    }
