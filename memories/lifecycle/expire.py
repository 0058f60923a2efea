"""Expire: memories past ``expires_at`` and pending confirmations past theirs (§10.3 TTL).

The read path already hides a memory from the moment ``now >= expires_at``; this job makes the
stored status say so and writes ``memory_expired`` (and ``confirmation_expired``), exactly once per
memory however many workers run it.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.vocabulary import Status
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, claim, job_actor, timed_run
from memories.models import Confirmation, Memory
from memories.services.records import memory_expire

JOB = "expire"
ACTOR = job_actor(JOB)
EXPIRABLE = (Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL)
PENDING = (Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL)


def confirmation_close_expired(
    confirmation: Confirmation, *, now: datetime, actor: str = ACTOR, reason_code: str = "confirmation_expired"
) -> None:
    """Close a locked pending confirmation as expired and audit it (no content: ids and codes)."""
    confirmation.state = Confirmation.State.EXPIRED
    confirmation.decided_by, confirmation.decided_at = actor, now
    confirmation.save(update_fields=["state", "decided_by", "decided_at"])
    memory = confirmation.memory
    audit_record(
        tenant_id=confirmation.tenant_id,
        event=Event.CONFIRMATION_EXPIRED,
        actor=actor,
        memory_id=memory.pk,
        memory_type=memory.type,
        scope=memory.level,
        subject_id=memory.user_id,
        sensitivity=memory.sensitivity,
        requires_confirmation=True,
        policy_version=memory.policy_version,
        reason_code=reason_code,
        details={"confirmation_id": str(confirmation.pk), "confirm_by": confirmation.confirm_by},
    )


def memory_expire_one(memory_id: UUID, *, now: datetime) -> bool:
    """Expire one memory if it is still live and past its time; False if there was nothing to do."""
    with transaction.atomic():
        memory = claim(Memory.objects.filter(pk=memory_id, status__in=EXPIRABLE, expires_at__lte=now))
        if memory is None:
            return False
        was_pending = memory.status in PENDING
        memory_expire(memory=memory, actor=ACTOR, reason_code="ttl_expired")
        if was_pending:  # a pending memory past its own TTL can't be accepted any more either
            pending = claim(
                Confirmation.objects.select_related("memory").filter(
                    memory_id=memory.pk, state=Confirmation.State.PENDING
                )
            )
            if pending is not None:
                confirmation_close_expired(pending, now=now)
        return True


def confirmation_expire_one(confirmation_id: UUID, *, now: datetime) -> bool:
    """Expire one pending confirmation past its time, and the pending memory it was holding."""
    with transaction.atomic():
        confirmation = claim(
            Confirmation.objects.select_related("memory").filter(
                pk=confirmation_id, state=Confirmation.State.PENDING, expires_at__lte=now
            )
        )
        if confirmation is None:
            return False
        confirmation_close_expired(confirmation, now=now)
        if confirmation.memory.status in PENDING:
            memory_expire(memory=confirmation.memory, actor=ACTOR, reason_code="confirmation_expired")
        return True


def expire_run(
    *, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE, now: datetime | None = None
) -> JobResult:
    """One bounded pass: up to ``batch_size`` confirmations and ``batch_size`` memories.

    A memory expires when ``now >= expires_at`` — the same instant the read path stops showing it.
    """
    now = now or timezone.now()
    result = JobResult(JOB)
    with timed_run(result):
        confirmations = Confirmation.objects.filter(state=Confirmation.State.PENDING, expires_at__lte=now)
        memories = Memory.objects.filter(status__in=EXPIRABLE, expires_at__lte=now)
        if tenant_id is not None:
            confirmations = confirmations.filter(tenant_id=tenant_id)
            memories = memories.filter(tenant_id=tenant_id)
        confirmation_ids = list(confirmations.order_by("expires_at", "id").values_list("id", flat=True)[:batch_size])
        for confirmation_id in confirmation_ids:
            result.add("confirmations_expired" if confirmation_expire_one(confirmation_id, now=now) else "skipped")
        memory_ids = list(memories.order_by("expires_at", "id").values_list("id", flat=True)[:batch_size])
        for memory_id in memory_ids:
            result.add("expired" if memory_expire_one(memory_id, now=now) else "skipped")
        result.has_more = len(confirmation_ids) == batch_size or len(memory_ids) == batch_size
    return result
