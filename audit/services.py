"""The one audit writer. Call it inside the transaction of the change it records."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.chain import GENESIS, event_hash
from audit.events import Event
from audit.models import AuditChainHead, AuditEvent

_DETAIL_KEY = re.compile(r"^[a-z][a-z0-9_]{0,47}$")
# Ids, codes, counts: short tokens with no spaces and ASCII only, so free text (memory content,
# names people typed) can't slip into the log through ``details``.
_DETAIL_TOKEN = re.compile(r"^[A-Za-z0-9_.:@/+=#-]{0,128}$", re.ASCII)


class AuditDetailError(ValueError):
    """A detail value looked like free text; the audit log only carries ids, codes and counts."""


def _check_detail(key: str, value: Any) -> Any:
    if isinstance(value, bool | int) or value is None:
        return value
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, str):
        if not _DETAIL_TOKEN.match(value):
            raise AuditDetailError(f"audit detail {key!r} must be an id or code, not free text")
        return value
    if isinstance(value, list | tuple):
        return [_check_detail(key, item) for item in value]
    raise AuditDetailError(f"audit detail {key!r} has unsupported type {type(value).__name__}")


def _clean_details(details: Mapping[str, Any] | None) -> dict[str, Any]:
    clean: dict[str, Any] = {}
    for key, value in (details or {}).items():
        if not _DETAIL_KEY.match(key):
            raise AuditDetailError(f"audit detail key {key!r} is not snake_case")
        clean[key] = _check_detail(key, value)
    return clean


def _lock_head(tenant_id: int) -> AuditChainHead:
    try:
        return AuditChainHead.objects.select_for_update().get(tenant_id=tenant_id)
    except AuditChainHead.DoesNotExist:
        pass
    try:
        with transaction.atomic():
            AuditChainHead.objects.create(tenant_id=tenant_id, seq=0, head_hash=GENESIS)
    except IntegrityError:
        pass  # a concurrent first append created it
    return AuditChainHead.objects.select_for_update().get(tenant_id=tenant_id)


def audit_record(
    *,
    tenant_id: int,
    event: Event,
    actor: str,
    memory_id: UUID | str | None = None,
    memory_type: str = "",
    scope: str = "",
    subject_id: str = "",
    sensitivity: str = "",
    source_message_id: str = "",
    requires_confirmation: bool | None = None,
    approved_by: str = "",
    agent_version: str = "",
    policy_version: int | None = None,
    reason_code: str = "",
    entity_types: Iterable[str] = (),
    details: Mapping[str, Any] | None = None,
) -> AuditEvent:
    """Append one event to the tenant's chain. Never pass memory content here."""
    fields: dict[str, Any] = {
        "tenant_id": tenant_id,
        "event": Event(event).value,
        "created_at": timezone.now(),
        "actor": actor,
        "memory_id": str(memory_id) if memory_id else None,
        "memory_type": memory_type,
        "scope": scope,
        "subject_id": subject_id,
        "sensitivity": sensitivity,
        "source_message_id": source_message_id,
        "requires_confirmation": requires_confirmation,
        "approved_by": approved_by,
        "agent_version": agent_version,
        "policy_version": policy_version,
        "reason_code": reason_code,
        "entity_types": sorted(set(entity_types)),
        "details": _clean_details(details),
    }
    with transaction.atomic():
        head = _lock_head(tenant_id)
        fields["seq"] = head.seq + 1
        fields["prev_hash"] = head.head_hash
        fields["hash"] = event_hash(fields)
        row = AuditEvent.objects.create(**fields)
        head.seq = fields["seq"]
        head.head_hash = fields["hash"]
        head.save(update_fields=["seq", "head_hash"])
    return row
