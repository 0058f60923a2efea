"""Invalidate what a scope granted once the grant is gone (§10.3 角色/租户/权限变化后失效).

- A person leaving a team: their memories at that team's scope are archived (pending ones
  expire), in the same transaction as the removal (``memories.services.teams.team_member_remove``).
  Team rules stop being injected for them at once because the read path checks current team
  membership on every read; nothing here needs to run for that.
- A sweep catches what was removed some other way (a membership deleted, cascading its team links;
  a team deleted): team-scope memories whose subject is no longer in the team, or whose team no
  longer exists, are invalidated the same way.
- A revoked rule (``rule_revoke``) is archived and leaves every read.
"""

from __future__ import annotations

from uuid import UUID

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.models import Team, TeamMembership
from governance.vocabulary import RULE_TYPES, Level, Status
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, claim, job_actor, timed_run
from memories.lifecycle.expire import confirmation_close_expired
from memories.models import Confirmation, Memory
from memories.services.records import MemoryStateError, memory_archive, memory_expire

JOB = "invalidate"
ACTOR = job_actor(JOB)
LIVE = (Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL)
PENDING = (Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL)


def memory_invalidate(memory: Memory, *, actor: str, reason_code: str) -> str:
    """Take a live memory out of every read: archive it, or expire it (and its confirmation) if pending.

    Call inside a transaction with the memory locked or freshly claimed. Returns the outcome.
    """
    if memory.status in PENDING:
        memory_expire(memory=memory, actor=actor, reason_code=reason_code)
        pending = claim(
            Confirmation.objects.select_related("memory").filter(memory_id=memory.pk, state=Confirmation.State.PENDING)
        )
        if pending is not None:
            confirmation_close_expired(pending, now=timezone.now(), actor=actor, reason_code=reason_code)
        return "expired"
    memory_archive(memory=memory, actor=actor, reason_code=reason_code)
    return "archived"


def team_scope_invalidate(*, tenant_id: int, team_slug: str, subject_id: str, actor: str) -> int:
    """Invalidate one person's memories at one team's scope; returns how many. Runs in the caller's
    transaction (the removal that makes them invalid), so both land together or not at all."""
    count = 0
    memories = Memory.objects.filter(
        tenant_id=tenant_id, level=Level.TEAM, team=team_slug, user_id=subject_id, status__in=LIVE
    ).order_by("id")
    with transaction.atomic():
        for memory in memories.select_for_update(of=("self",)):
            memory_invalidate(memory, actor=actor, reason_code="team_membership_ended")
            count += 1
    return count


@transaction.atomic
def rule_revoke(*, memory: Memory, actor: str) -> Memory:
    """Revoke an approved rule: archived at once (gone from every read) and audited as ``rule_revoked``."""
    if memory.type not in RULE_TYPES:
        raise MemoryStateError("only rules can be revoked")
    memory = memory_archive(memory=memory, actor=actor, reason_code="rule_revoked")
    audit_record(
        tenant_id=memory.tenant_id,
        event=Event.RULE_REVOKED,
        actor=actor,
        memory_id=memory.pk,
        memory_type=memory.type,
        scope=memory.level,
        subject_id=memory.user_id,
        sensitivity=memory.sensitivity,
        reason_code="rule_revoked",
    )
    return memory


def _orphaned_team_memories() -> QuerySet[Memory]:
    """Live team-scope memories whose team is gone, or whose subject is no longer in the team."""
    team_exists = Team.objects.filter(tenant_id=OuterRef("tenant_id"), slug=OuterRef("team"))
    still_member = TeamMembership.objects.filter(
        team__tenant_id=OuterRef("tenant_id"),
        team__slug=OuterRef("team"),
        membership__tenant_id=OuterRef("tenant_id"),
        membership__subject_id=OuterRef("user_id"),
    )
    return Memory.objects.filter(level=Level.TEAM, status__in=LIVE).filter(
        ~Exists(team_exists) | (~Q(user_id="") & ~Exists(still_member))
    )


def memory_invalidate_one(memory_id: UUID) -> str:
    with transaction.atomic():
        memory = claim(_orphaned_team_memories().filter(pk=memory_id))
        if memory is None:
            return "skipped"
        team_gone = not Team.objects.filter(tenant_id=memory.tenant_id, slug=memory.team).exists()
        return memory_invalidate(
            memory, actor=ACTOR, reason_code="team_removed" if team_gone else "team_membership_ended"
        )


def invalidate_run(*, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE) -> JobResult:
    """One bounded sweep over team-scope memories that lost their grant."""
    result = JobResult(JOB)
    with timed_run(result):
        candidates = _orphaned_team_memories()
        if tenant_id is not None:
            candidates = candidates.filter(tenant_id=tenant_id)
        ids = list(candidates.order_by("id").values_list("id", flat=True)[:batch_size])
        for memory_id in ids:
            result.add(memory_invalidate_one(memory_id))
        result.has_more = len(ids) == batch_size
    return result
