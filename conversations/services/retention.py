"""The session purge job (§5.1 "要有保留周期"): an ended session's raw history is deleted once the
tenant policy's ``session_retention_days`` have passed since it ended; the audit log keeps its events.

Bounded and idempotent like the memory lifecycle jobs (``memories.lifecycle``): a batch of candidate
ids, each deleted in its own transaction after claiming it again with its condition.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from conversations.models import Session
from conversations.services.deletion import session_remove
from governance.models import Tenant
from governance.policy import policy_snapshot_for_tenant
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, claim, job_actor, timed_run
from memories.lifecycle.purge import sqlite_truncate_wal

JOB = "sessions_purge"
ACTOR = job_actor(JOB)


def _expired(*, tenant_id: int, cutoff: datetime):  # -> QuerySet[Session]
    return Session.objects.filter(tenant_id=tenant_id, state="ended", ended_at__lt=cutoff, deleted_at__isnull=True)


def sessions_purge_run(
    *, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE, now: datetime | None = None
) -> JobResult:
    """One bounded pass over all tenants (or one), each with its own policy's retention."""
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
            cutoff = now - timedelta(days=policy_snapshot_for_tenant(tenant_id=tid).session_retention_days)
            ids = list(
                _expired(tenant_id=tid, cutoff=cutoff).order_by("ended_at").values_list("pk", flat=True)[:budget]
            )
            budget -= len(ids)
            for session_id in ids:
                with transaction.atomic():
                    session = claim(_expired(tenant_id=tid, cutoff=cutoff).filter(pk=session_id))
                    if session is None:
                        result.add("skipped")
                        continue
                    done = session_remove(session, actor=ACTOR, reason_code="retention_elapsed", forget_extracted=False)
                result.add("purged")
                result.add("events_deleted", done.events_deleted)
                result.add("kept_for_forks", 1 if done.events_kept_for_forks else 0)
        result.has_more = result.has_more or budget <= 0
        if result["purged"]:
            sqlite_truncate_wal()
    return result
