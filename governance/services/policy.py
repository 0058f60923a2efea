"""The tenant's governance policy: every save is a new, immutable version; restoring is a save too.

``governance.policy.policy_snapshot_for_tenant`` loads the newest version, and every write decision
records its number, so what was in force for any decision can always be looked up. A version is
validated before it is stored (the snapshot's checks plus the alert thresholds), so a broken
document never becomes the one in force. The audit event carries the version numbers and the
changed keys (codes such as ``ttl_by_type.task_state``), never the reason a person typed.

Agent rights (which memory types and levels a key may write) live on the key itself
(``AgentClient.allowed_types`` / ``allowed_levels``, enforced by ``check_agent_rights`` on every
write): they change at once, with their own audit event, and are not part of a policy version.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction

from audit.events import Event
from audit.services import audit_record
from governance.alerting import alert_thresholds_from_document
from governance.models import AgentClient, PolicyVersion, Tenant
from governance.policy import PolicyDocumentError, snapshot_from_document
from governance.vocabulary import Level, MemoryType

REASON_MAX_CHARS = 500
# The longest TTL and day count a saved version may hold: expiries and cut-offs are computed as dates,
# and Python's dates end in the year 9999 (a larger value makes every write of that type fail).
# Checked when saving only, so that a version stored before these limits still loads.
MAX_TTL_SECONDS = 100 * 365 * 86_400
MAX_DAYS = 100 * 365
# A snapshot interval beyond this would make rebuilding a state read thousands of deltas.
MAX_SNAPSHOT_INTERVAL = 1000


class PolicyError(ValueError):
    """The save can't be made; ``field`` names the form field it is about (or "" for the whole form), and
    ``code`` says which refusal it is, for pages that show it in the reader's language."""

    def __init__(self, field: str, message: str, *, code: str = "") -> None:
        super().__init__(message)
        self.field = field
        self.code = code


def policy_document_validate(document: dict[str, Any]) -> None:
    """Raise PolicyDocumentError (its message names the field) unless the document can be in force."""
    snapshot = snapshot_from_document(document, version=1)
    alert_thresholds_from_document(document)
    seconds = {f"ttl_by_type.{name}": ttl for name, ttl in snapshot.ttl_by_type.items() if ttl is not None}
    seconds |= {"high_sensitivity_ttl": snapshot.high_sensitivity_ttl}
    seconds |= {"pending_confirmation_ttl": snapshot.pending_confirmation_ttl}
    for name, value in seconds.items():
        if value > MAX_TTL_SECONDS:
            raise PolicyDocumentError(f"{name} must be at most {MAX_TTL_SECONDS} seconds (100 years)")
    for name in ("max_unused_days", "purge_grace_days", "session_retention_days"):
        if getattr(snapshot, name) > MAX_DAYS:
            raise PolicyDocumentError(f"{name} must be at most {MAX_DAYS} days (100 years)")
    if snapshot.session_snapshot_interval > MAX_SNAPSHOT_INTERVAL:
        raise PolicyDocumentError(f"session_snapshot_interval must be at most {MAX_SNAPSHOT_INTERVAL} events")
    if snapshot.extractor == "llm" and not settings.MEMGOV_EXTRACTOR_URL:
        raise PolicyDocumentError(
            "extractor 'llm' needs an LLM endpoint on this deployment (MEMGOV_EXTRACTOR_URL): "
            "choose 'rules' or 'default'"
        )


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def policy_diff(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(dotted key, old value, new value) for every key that differs; missing values are None."""
    before, after = _flatten(old), _flatten(new)
    return [
        (key, before.get(key), after.get(key))
        for key in sorted(before.keys() | after.keys())
        if before.get(key) != after.get(key) or (key in before) != (key in after)
    ]


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise PolicyError(
            "reason", "Say why the policy changes: the reason is kept with the version.", code="no_reason"
        )
    if len(reason) > REASON_MAX_CHARS:
        raise PolicyError("reason", f"Keep the reason under {REASON_MAX_CHARS} characters.")
    return reason


def policy_version_insert(
    *, tenant: Tenant, version: int, document: dict[str, Any], reason: str, actor: str
) -> PolicyVersion:
    """Insert one policy version, its reason sealed (call inside the save's transaction; it audits nothing).

    The reason's associated data names the row's id, which the database assigns: insert, then seal.
    """
    row = PolicyVersion.objects.create(tenant=tenant, version=version, document=document, created_by=actor)
    row.reason = reason
    row.save(update_fields=["reason"])
    return row


def _newest(tenant: Tenant) -> PolicyVersion | None:
    return PolicyVersion.objects.filter(tenant=tenant).order_by("-version").first()


@transaction.atomic
def policy_version_create(
    *, tenant: Tenant, document: dict[str, Any], reason: str, actor: str, restored_from: int | None = None
) -> PolicyVersion:
    """Store ``document`` as the tenant's next policy version (in force from now on), audited."""
    reason = _clean_reason(reason)
    try:
        policy_document_validate(document)
    except PolicyDocumentError as exc:
        raise PolicyError(str(exc).split(" ", 1)[0].rstrip(":"), str(exc)) from exc
    # Lock the tenant row: two saves at once get consecutive versions, not a unique-constraint error.
    Tenant.objects.select_for_update().filter(pk=tenant.pk).first()
    previous = _newest(tenant)
    changed = policy_diff(previous.document if previous else {}, document)
    if previous is not None and not changed:
        raise PolicyError("", "Nothing changed: this is the policy in force already.", code="unchanged")
    version = policy_version_insert(
        tenant=tenant, version=(previous.version if previous else 0) + 1, document=document, reason=reason, actor=actor
    )
    details: dict[str, Any] = {
        "version": version.version,
        "previous_version": previous.version if previous else None,
        "changed_keys": [key for key, _, _ in changed],
    }
    if restored_from is not None:
        details["restored_from"] = restored_from
    audit_record(
        tenant_id=tenant.pk,
        event=Event.POLICY_VERSION_CREATED,
        actor=actor,
        policy_version=version.version,
        reason_code="policy_restored" if restored_from is not None else "policy_edited",
        details=details,
    )
    return version


def policy_version_restore(*, tenant: Tenant, version: int, reason: str, actor: str) -> PolicyVersion:
    """Put an earlier version's document back in force, as a new version (history is never rewritten)."""
    earlier = PolicyVersion.objects.filter(tenant=tenant, version=version).first()
    if earlier is None:
        raise PolicyError("version", "There is no such policy version.")
    return policy_version_create(
        tenant=tenant, document=earlier.document, reason=reason, actor=actor, restored_from=earlier.version
    )


_TYPES = {t.value for t in MemoryType}
_LEVELS = {level.value for level in Level}


@transaction.atomic
def agent_rights_set(
    *, client: AgentClient, allowed_types: Iterable[str], allowed_levels: Iterable[str], actor: str
) -> AgentClient:
    """Limit what an agent key may write (empty: whatever the policy allows). Takes effect at once."""
    types, levels = sorted(set(allowed_types)), sorted(set(allowed_levels))
    if not set(types) <= _TYPES:
        raise PolicyError("allowed_types", "Unknown memory type.")
    if not set(levels) <= _LEVELS:
        raise PolicyError("allowed_levels", "Unknown scope level.")
    client = AgentClient.objects.select_for_update().get(pk=client.pk)
    if sorted(client.allowed_types) == types and sorted(client.allowed_levels) == levels:
        return client
    client.allowed_types, client.allowed_levels = types, levels
    client.save(update_fields=["allowed_types", "allowed_levels"])
    audit_record(
        tenant_id=client.tenant_id,
        event=Event.AGENT_RIGHTS_CHANGED,
        actor=actor,
        details={
            "agent": client.name,
            "key_prefix": client.key_prefix,
            "allowed_types": types,
            "allowed_levels": levels,
        },
    )
    return client
