"""Who is calling, and which memories they may touch. Missing and not-yours look the same (404)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest

from governance.agents import AgentPrincipal
from governance.models import AgentClient, Membership
from governance.vocabulary import Status
from memories.models import Memory
from memories.selectors import memory_get


@dataclass(frozen=True)
class Caller:
    tenant_id: int
    actor: str
    agent: AgentClient | None = None
    # A person may only act on their own subject id; an agent acts for any subject of its tenant.
    subject_id: str | None = None
    membership: Membership | None = None

    @property
    def is_agent(self) -> bool:
        return self.agent is not None


def membership_for_user(user: object) -> Membership | None:
    if not getattr(user, "is_authenticated", False) or isinstance(user, AgentPrincipal):
        return None
    return Membership.objects.select_related("tenant").filter(user=user).order_by("pk").first()


def caller_for(request: HttpRequest) -> Caller:
    user = request.user
    if isinstance(user, AgentPrincipal):
        return Caller(tenant_id=user.tenant_id, actor=user.label, agent=user.client)
    membership = membership_for_user(user)
    if membership is None:
        raise Http404("no membership")
    return Caller(
        tenant_id=membership.tenant_id,
        actor=f"user:{user.get_username()}",
        subject_id=membership.subject_id,
        membership=membership,
    )


def memory_for_caller(caller: Caller, memory_id: object, *, change: bool = False) -> Memory:
    """The memory if this caller may see it (``change=False``) or change it (``change=True``).

    Shared-scope memories (team, project and tenant rules, with no subject) are governed by tenant
    admins in the console; an agent may read them but never edit, pause, roll back or delete them.
    A deleted memory is gone for agents at once: during the purge grace only its owner sees it.
    """
    memory = memory_get(tenant_id=caller.tenant_id, memory_id=memory_id, user_id=caller.subject_id)
    if memory is None or (change and caller.is_agent and not memory.user_id):
        raise Http404("no such memory")
    if caller.is_agent and memory.status == Status.DELETED:
        raise Http404("no such memory")
    return memory
