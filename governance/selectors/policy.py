"""Reads for the policy page: the version in force and the history, each version with its diff."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from governance.models import AgentClient, PolicyVersion
from governance.policy import default_policy_document
from governance.services.policy import policy_diff

HISTORY_SHOWN = 50


@dataclass(frozen=True)
class VersionWithDiff:
    row: PolicyVersion
    changes: list[tuple[str, Any, Any]]  # (dotted key, before, after) against the version before it


def policy_current(*, tenant_id: int) -> tuple[int, dict[str, Any]]:
    """The version number and document in force (0 and the default document if none was stored)."""
    row = PolicyVersion.objects.filter(tenant_id=tenant_id).order_by("-version").first()
    return (row.version, row.document) if row else (0, default_policy_document())


def policy_version_document(*, tenant_id: int, version: int) -> dict[str, Any] | None:
    """One stored version's document, or None (another tenant's and no such version alike)."""
    row = PolicyVersion.objects.filter(tenant_id=tenant_id, version=version).first()
    return row.document if row else None


def policy_history(*, tenant_id: int, limit: int = HISTORY_SHOWN) -> list[VersionWithDiff]:
    """The newest ``limit`` versions, newest first, each with what it changed."""
    rows = list(PolicyVersion.objects.filter(tenant_id=tenant_id).order_by("-version")[: limit + 1])
    history = []
    for index, row in enumerate(rows[:limit]):
        before = rows[index + 1].document if index + 1 < len(rows) else {}
        history.append(VersionWithDiff(row, policy_diff(before, row.document)))
    return history


def agents_for_policy(*, tenant_id: int) -> list[AgentClient]:
    return list(AgentClient.objects.filter(tenant_id=tenant_id, revoked_at__isnull=True).order_by("name"))


def agent_get(*, tenant_id: int, agent_id: int) -> AgentClient | None:
    return AgentClient.objects.filter(tenant_id=tenant_id, pk=agent_id).first()
