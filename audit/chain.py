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


def normalized(fields: dict[str, Any]) -> dict[str, Any]:
    """The chained fields as JSON-ready values, exactly as the hash sees them (exports write these)."""
    values = {name: fields.get(name) for name in CHAINED_FIELDS}
    created_at = values["created_at"]
    if isinstance(created_at, datetime):
        values["created_at"] = created_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if values["memory_id"] is not None:
        values["memory_id"] = str(values["memory_id"])
    return values


def canonical(fields: dict[str, Any]) -> bytes:
    return json.dumps(normalized(fields), sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def event_hash(fields: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(fields)).hexdigest()


def row_fields(row: Any) -> dict[str, Any]:
    """The chained fields of a stored AuditEvent (or anything with those attributes)."""
    return {name: getattr(row, name) for name in CHAINED_FIELDS}
