"""A person's switch for one of the tenant's agents: off stops it using their memories, on gives them back."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.models import AgentClient
from memories.models import AgentAccess


class AgentAccessError(Exception):
    """No such agent in the person's tenant (another tenant's agent looks the same)."""


@transaction.atomic
def agent_access_set(*, tenant_id: int, user_id: str, agent_id: int, blocked: bool, actor: str) -> bool:
    """Switch one agent off (``blocked``) or on again for this subject, audited in the same transaction;
    True when that changed something.

    Off: the agent's context reads return none of the subject's memories and its writes about them are
    rejected (``subject_blocked_agent``), from the very next request. Setting the state it already has
    changes nothing and writes no event.
    """
    if not user_id:
        raise AgentAccessError("a switch belongs to a subject")
    agent = AgentClient.objects.filter(tenant_id=tenant_id, pk=agent_id).first()
    if agent is None:
        raise AgentAccessError("no such agent")
    now = timezone.now()
    access = AgentAccess.objects.select_for_update().filter(tenant_id=tenant_id, user_id=user_id, agent=agent).first()
    if access is None:
        if not blocked:
            return False  # on, and it was never off
        AgentAccess.objects.create(
            tenant_id=tenant_id, user_id=user_id, agent=agent, blocked=True, changed_by=actor, changed_at=now
        )
    elif access.blocked == blocked:
        return False
    else:
        access.blocked, access.changed_by, access.changed_at = blocked, actor, now
        access.save(update_fields=["blocked", "changed_by", "changed_at"])
    audit_record(
        tenant_id=tenant_id,
        event=Event.SUBJECT_AGENT_BLOCKED if blocked else Event.SUBJECT_AGENT_ALLOWED,
        actor=actor,
        subject_id=user_id,
        agent_version=agent.name,
        details={"agent_id": agent.pk},
    )
    return True
