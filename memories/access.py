"""Who is calling, and which memories they may touch. Missing and not-yours look the same (404)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest

from governance.agents import AgentPrincipal
from governance.models import AgentClient, Membership
from governance.vocabulary import Role, Status
from memories.agent_selectors import agent_is_blocked
from memories.models import Confirmation, Memory
from memories.selectors import confirmation_get, memory_get


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


def caller_for_agent(client: AgentClient) -> Caller:
    """An agent, whichever surface its key came in by (REST, MCP over HTTP or stdio)."""
    principal = AgentPrincipal(client)
    return Caller(tenant_id=principal.tenant_id, actor=principal.label, agent=client)


def caller_for(request: HttpRequest) -> Caller:
    user = request.user
    if isinstance(user, AgentPrincipal):
        return caller_for_agent(user.client)
    membership = membership_for_user(user)
    if membership is None:
        raise Http404("no membership")
    return Caller(
        tenant_id=membership.tenant_id,
        actor=f"user:{user.get_username()}",
        subject_id=membership.subject_id,
        membership=membership,
    )


# What an agent is told when it asks to act on the memories of a person who switched it off.
SWITCHED_OFF_DETAIL = "This person has switched this agent off: it may not use or change their memories."


def agent_switched_off(caller: Caller, user_id: str) -> bool:
    """The caller is an agent this subject switched off: it may neither see nor change their memories."""
    return caller.agent is not None and agent_is_blocked(
        tenant_id=caller.tenant_id, user_id=user_id, agent_id=caller.agent.pk
    )


def memory_for_caller(caller: Caller, memory_id: object, *, change: bool = False) -> Memory:
    """The memory if this caller may see it (``change=False``) or change it (``change=True``).

    Shared-scope memories (team, project and tenant rules, with no subject) are governed by tenant
    admins in the console; an agent may read them but never edit, pause, roll back or delete them.
    A deleted memory is gone for agents at once: during the purge grace only its owner sees it. An agent
    its subject switched off gets the same 404 for every memory of theirs.
    """
    memory = memory_get(tenant_id=caller.tenant_id, memory_id=memory_id, user_id=caller.subject_id)
    if memory is None or (change and caller.is_agent and not memory.user_id):
        raise Http404("no such memory")
    if caller.is_agent and memory.status == Status.DELETED:
        raise Http404("no such memory")
    if memory.user_id and agent_switched_off(caller, memory.user_id):
        raise Http404("no such memory")
    return memory


def confirmation_for_caller(caller: Caller, confirmation_id: object) -> Confirmation:
    """The confirmation if this caller may settle it; the same 404 otherwise.

    confirm_by=user: the subject themself, or an agent of the tenant acting on their word.
    confirm_by=admin: a tenant admin (team owner for their team's rules) — never an agent, never the proposer.
    """
    confirmation = confirmation_get(tenant_id=caller.tenant_id, confirmation_id=confirmation_id)
    if confirmation is None:
        raise Http404
    memory = confirmation.memory
    if memory.user_id and agent_switched_off(caller, memory.user_id):
        raise Http404
    if confirmation.confirm_by == "user":
        if caller.is_agent or caller.subject_id == memory.user_id:
            return confirmation
        raise Http404
    membership: Membership | None = caller.membership
    if membership is None:
        raise Http404
    if membership.role == Role.TENANT_ADMIN:
        return confirmation
    owns_team = membership.teammembership_set.filter(team__slug=memory.team, is_owner=True).exists()
    if memory.team and owns_team:
        return confirmation
    raise Http404
