"""The chain's hash format is fixed: exported logs are verified against it for years."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

from audit.chain import event_hash, normalized

EVENT = {
    "tenant_id": 7,
    "seq": 42,
    "event": "memory_write_approved",
    "created_at": datetime(2026, 11, 30, 9, 30, 1, 123456, tzinfo=timezone(timedelta(hours=8))),
    "actor": "agent:demo",
    "memory_id": uuid.UUID("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"),
    "memory_type": "user_preference",
    "scope": "user",
    "subject_id": "alice",
    "sensitivity": "low",
    "source_message_id": "msg-1",
    "requires_confirmation": False,
    "approved_by": "",
    "agent_version": "demo",
    "policy_version": 3,
    "reason_code": "explicit_request",
    "entity_types": ["EMAIL"],
    "details": {"deduplicated": False},
    "prev_hash": "0" * 64,
}


def test_a_known_event_hashes_to_its_known_value():
    # Computed once with the original implementation; any change to the canonical form breaks it.
    assert event_hash(EVENT) == "d898b6723927655128b15dbf9aa3dd64839201e880bd2b047031cc9ad3906fbf"


def test_the_canonical_time_is_utc_with_microseconds_and_ids_are_strings():
    values = normalized(EVENT)
    assert values["created_at"] == "2026-11-30T01:30:01.123456Z"
    assert values["memory_id"] == "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
    assert "hash" not in values and len(values) == 19
