"""Unused: archive memories nobody used for the tenant policy's ``max_unused_days`` (seed 000 GC).

"Used" is the later of ``last_used_at`` (set by the read path when a memory is injected) and
``last_cited_at`` (set when an answer reports it used the memory), or ``created_at`` for a memory never
used. Shared rules (a rule at team/project/tenant scope with no subject) are left
alone: they are governed by approval and revocation, and a rarely-triggered rule ("never deploy
without review") must not lapse because nothing triggered it. Paused memories are the person's
choice; left alone too.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from governance.models import Tenant
from governance.policy import policy_snapshot_for_tenant
from governance.vocabulary import RULE_TYPES, SHARED_LEVELS, Status
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, claim, job_actor, timed_run
from memories.models import Memory
from memories.services.records import memory_archive

JOB = "unused"
ACTOR = job_actor(JOB)


def _unused_since(*, tenant_id: int, cutoff: datetime) -> QuerySet[Memory]:
    return (
        Memory.objects.filter(tenant_id=tenant_id, status=Status.ACTIVE)
        .exclude(Q(type__in=RULE_TYPES) & Q(level__in=SHARED_LEVELS) & Q(user_id=""))
        .alias(
            last_use=Greatest(
                Coalesce(F("last_used_at"), F("created_at")), Coalesce(F("last_cited_at"), F("created_at"))
            )
        )
        .filter(last_use__lt=cutoff)
    )


def memory_archive_unused_one(memory_id: UUID, *, tenant_id: int, cutoff: datetime) -> bool:
    with transaction.atomic():
        # The condition again, under the lock: a memory injected since the batch was read stays.
        memory = claim(_unused_since(tenant_id=tenant_id, cutoff=cutoff).filter(pk=memory_id))
        if memory is None:
            return False
        memory_archive(memory=memory, actor=ACTOR, reason_code="unused")
        return True


def unused_run(
    *, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE, now: datetime | None = None
) -> JobResult:
    """One bounded pass over all tenants (or one), each with its own policy's ``max_unused_days``."""
    now = now or timezone.now()
    result = JobResult(JOB)
    budget = batch_size
    with timed_run(result):
        tenants = Tenant.objects.order_by("pk").values_list("pk", flat=True)
        if tenant_id is not None:
            tenants = tenants.filter(pk=tenant_id)
        for tid in tenants:
            if budget <= 0:
                result.has_more = True
                break
            cutoff = now - timedelta(days=policy_snapshot_for_tenant(tenant_id=tid).max_unused_days)
            ids = list(_unused_since(tenant_id=tid, cutoff=cutoff).order_by("id").values_list("id", flat=True)[:budget])
            budget -= len(ids)
            for memory_id in ids:
                archived = memory_archive_unused_one(memory_id, tenant_id=tid, cutoff=cutoff)
                result.add("archived" if archived else "skipped")
        result.has_more = result.has_more or budget <= 0
    return result
