"""The canonical form of an audit event and the hash that chains it to the one before."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64

# The fields that the hash covers, in a fixed order. Adding one is a chain-format change.
CHAINED_FIELDS = (
    "tenant_id",
    "seq",
    "event",
    "created_at",
    "actor",
    "memory_id",
    "memory_type",
    "scope",
    "subject_id",
    "sensitivity",
    "source_message_id",
    "requires_confirmation",
    "approved_by",
    "agent_version",
    "policy_version",
    "reason_code",
    "entity_types",
    "details",
    "prev_hash",
)


def _normalize(name: str, value: Any) -> Any:
    if name == "created_at" and isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if name == "memory_id" and value is not None:
        return str(value)
    return value


def normalized(fields: dict[str, Any]) -> dict[str, Any]:
    """The chained fields as JSON-ready values, exactly as the hash sees them (exports write these)."""
    return {name: _normalize(name, fields.get(name)) for name in CHAINED_FIELDS}


def canonical(fields: dict[str, Any]) -> bytes:
    return json.dumps(normalized(fields), sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def event_hash(fields: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(fields)).hexdigest()


def row_fields(row: Any) -> dict[str, Any]:
    """The chained fields of a stored AuditEvent (or anything with those attributes)."""
    return {name: getattr(row, name) for name in CHAINED_FIELDS}
