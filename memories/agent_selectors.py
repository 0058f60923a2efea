"""Reads about a person's agents: which of the tenant's agents wrote or read their memories, when, and
which ones the person switched off.

The activity comes from the audit log (ids, codes and counts only): a write is a
``memory_write_requested`` event about the subject, a read a ``memory_read`` event of a context read for
them, each carrying the agent's name (``agent_version``; unique per tenant and never reused). Both take the
tenant and the subject: no path returns another tenant's agents or another person's activity.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, Q

from audit.events import Event
from audit.models import AuditEvent
from governance.models import AgentClient
from governance.pipeline.reasons import ReasonCode
from memories.models import AgentAccess

# Audited when a read or a write was turned away because the person had switched the agent off.
BLOCKED = ReasonCode.SUBJECT_BLOCKED_AGENT.value


@dataclass(frozen=True)
class AgentActivity:
    """One agent of the tenant as the person sees it."""

    agent: AgentClient
    blocked: bool
    writes: int = 0
    last_write: datetime | None = None
    reads: int = 0
    last_read: datetime | None = None
    refused: int = 0  # reads and writes turned away while the person had it switched off
    last_refused: datetime | None = None
    switched_at: datetime | None = None  # when the person last turned it off or on

    @property
    def active(self) -> bool:
        return self.agent.is_active


def agent_is_blocked(*, tenant_id: int, user_id: str, agent_id: int) -> bool:
    """Whether this subject switched this agent off."""
    if not user_id:
        return False
    return AgentAccess.objects.filter(tenant_id=tenant_id, user_id=user_id, agent_id=agent_id, blocked=True).exists()


def agent_for_subject(*, tenant_id: int, agent_id: object) -> AgentClient | None:
    """One agent of this tenant (revoked ones too), or None: another tenant's agent and no agent look alike."""
    try:
        pk = int(str(agent_id))
    except ValueError:
        return None
    return AgentClient.objects.filter(tenant_id=tenant_id, pk=pk).first()


def agent_activity_for_subject(*, tenant_id: int, user_id: str) -> list[AgentActivity]:
    """The tenant's active agents, and revoked ones that touched this subject, with what each did: active
    first, then by name. One aggregate over the subject's audit events (the ``audit_subject`` index)."""
    rows = (
        AuditEvent.objects.filter(
            tenant_id=tenant_id,
            subject_id=user_id,
            event__in=(Event.MEMORY_WRITE_REQUESTED, Event.MEMORY_READ),
        )
        .exclude(agent_version="")
        .order_by()
        .values("agent_version", "event")
        .annotate(
            count=Count("pk", filter=~Q(reason_code=BLOCKED)),
            last=Max("created_at", filter=~Q(reason_code=BLOCKED)),
            refused=Count("pk", filter=Q(reason_code=BLOCKED)),
            last_refused=Max("created_at", filter=Q(reason_code=BLOCKED)),
        )
    )
    seen: dict[str, dict[str, object]] = {}
    for row in rows:
        entry = seen.setdefault(row["agent_version"], {"refused": 0, "last_refused": None})
        kind = "writes" if row["event"] == Event.MEMORY_WRITE_REQUESTED else "reads"
        entry[kind] = row["count"]
        entry[f"last_{kind[:-1]}"] = row["last"]
        entry["refused"] = int(entry["refused"]) + row["refused"]  # type: ignore[call-overload]
        last_refused = entry["last_refused"]
        if row["last_refused"] is not None and (last_refused is None or row["last_refused"] > last_refused):
            entry["last_refused"] = row["last_refused"]
    switches = {access.agent_id: access for access in AgentAccess.objects.filter(tenant_id=tenant_id, user_id=user_id)}
    agents = AgentClient.objects.filter(tenant_id=tenant_id).filter(Q(revoked_at__isnull=True) | Q(name__in=list(seen)))
    found = []
    for agent in agents:
        access = switches.get(agent.pk)
        found.append(
            AgentActivity(
                agent=agent,
                blocked=bool(access and access.blocked),
                switched_at=access.changed_at if access else None,
                **seen.get(agent.name, {}),  # type: ignore[arg-type]
            )
        )
    found.sort(key=lambda item: (not item.active, item.agent.name.lower()))
    return found
