"""A subject's data export: everything memgov holds about one person, as one JSON document.

Used by the "Export my data" page and reusable by the console (a data-access request handled by an
admin). It is a service, not a selector, because handing someone's data out is itself an audited
action (``subject_exported``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.events import Event
from audit.models import AuditEvent
from audit.services import audit_record
from governance.models import Tenant
from memories.models import Confirmation, Memory, MemoryVersion, SessionOptOut, Subject
from memories.selectors import complete_history
from vault.envelope import DecryptionError

EXPORT_FORMAT = "memgov.subject-export/1"

_AUDIT_FIELDS = (
    "seq",
    "event",
    "actor",
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
    "hash",
)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def _plain(read: Any) -> str | None:
    """Decrypted text, or None where the key is gone (an erased subject's leftovers)."""
    try:
        return read()
    except DecryptionError:
        return None


def _version(version: MemoryVersion) -> dict[str, Any]:
    return {
        "version": version.version,
        "content": _plain(lambda: version.content),
        "type": version.type,
        "sensitivity": version.sensitivity,
        "change": version.change,
        "change_reason": _plain(lambda: version.change_reason),
        "changed_by": version.changed_by,
        "created_at": _iso(version.created_at),
    }


def _memory(memory: Memory, versions: list[MemoryVersion], confirmation: Confirmation | None) -> dict[str, Any]:
    scope = {"level": memory.level}
    for name in ("user_id", "team", "project", "session_id", "task_id"):
        if getattr(memory, name):
            scope[name] = getattr(memory, name)
    return {
        "id": str(memory.pk),
        "type": memory.type,
        "content": _plain(lambda: memory.content),
        "scope": scope,
        "source": {
            "source_type": memory.source_type,
            "source_message_id": memory.source_message_id,
            "agent": memory.agent.name if memory.agent_id else "",
        },
        "confidence": memory.confidence,
        "sensitivity": memory.sensitivity,
        "entity_types": list(memory.entity_types),
        "status": memory.status,
        "version": memory.version,
        "retention_policy": memory.retention_policy,
        "expires_at": _iso(memory.expires_at),
        "reason_code": memory.reason_code,
        "reason": memory.reason,
        "policy_version": memory.policy_version,
        "created_by": memory.created_by,
        "reviewed_by": memory.reviewed_by,
        "last_used_at": _iso(memory.last_used_at),
        "use_count": memory.use_count,
        "created_at": _iso(memory.created_at),
        "updated_at": _iso(memory.updated_at),
        "confirmation": None
        if confirmation is None
        else {
            "id": str(confirmation.pk),
            "state": confirmation.state,
            "confirm_by": confirmation.confirm_by,
            "requested_by": confirmation.requested_by,
            "expires_at": _iso(confirmation.expires_at),
            "decided_by": confirmation.decided_by,
            "decided_at": _iso(confirmation.decided_at),
        },
        "versions": [_version(v) for v in versions],
    }


def _audit_event(event: AuditEvent) -> dict[str, Any]:
    row: dict[str, Any] = {name: getattr(event, name) for name in _AUDIT_FIELDS}
    row["memory_id"] = str(event.memory_id) if event.memory_id else None
    row["created_at"] = _iso(event.created_at)
    return row


@transaction.atomic
def subject_export(*, tenant_id: int, user_id: str, actor: str) -> dict[str, Any]:
    """Every memory of the subject (all statuses still held, with every version), their settings,
    and the audit events about them or their memories. Audits ``subject_exported`` with counts."""
    memories = list(
        Memory.objects.select_related("agent").filter(tenant_id=tenant_id, user_id=user_id).order_by("created_at", "id")
    )
    by_id = {memory.pk: memory for memory in memories}
    ids = list(by_id)
    versions: dict[Any, list[MemoryVersion]] = {}
    for version in MemoryVersion.objects.filter(tenant_id=tenant_id, memory_id__in=ids).order_by("version"):
        version.memory = by_id[version.memory_id]  # its owner decides the key: no query per version
        versions.setdefault(version.memory_id, []).append(version)
    confirmations = {c.memory_id: c for c in Confirmation.objects.filter(tenant_id=tenant_id, memory_id__in=ids)}
    events = AuditEvent.objects.filter(tenant_id=tenant_id).filter(Q(subject_id=user_id) | Q(memory_id__in=ids))
    subject = Subject.objects.filter(tenant_id=tenant_id, user_id=user_id).first()
    document = {
        "format": EXPORT_FORMAT,
        "tenant": Tenant.objects.values_list("slug", flat=True).get(pk=tenant_id),
        "user_id": user_id,
        "exported_at": timezone.now().isoformat(),
        "exported_by": actor,
        "settings": {
            "memory_paused": bool(subject and subject.memory_paused),
            "sessions_not_saved": list(
                SessionOptOut.objects.filter(tenant_id=tenant_id, user_id=user_id)
                .order_by("created_at")
                .values_list("session_id", flat=True)
            ),
        },
        "memories": [
            _memory(m, complete_history(m, versions.get(m.pk, []))[::-1], confirmations.get(m.pk)) for m in memories
        ],
        "audit_events": [_audit_event(e) for e in events.order_by("seq")],
    }
    audit_record(
        tenant_id=tenant_id,
        event=Event.SUBJECT_EXPORTED,
        actor=actor,
        subject_id=user_id,
        details={"memories": len(memories), "audit_events": len(document["audit_events"])},
    )
    return document
