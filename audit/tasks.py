"""The checkpoint job: sign every tenant's chain head and write it outside the database (audit/checkpoints.py).

Thin, like the lifecycle tasks. A tenant whose chain no longer extends its last checkpoint gets no new
one (that would launder the rewrite); it is logged as an error each run until someone runs verify_audit.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from audit.checkpoints import CheckpointMismatch, audit_checkpoint_write
from governance.models import Tenant

logger = logging.getLogger("memgov.audit")


def audit_checkpoint_all() -> dict[str, int]:
    """Checkpoint each tenant's head; counts of written and mismatched tenants."""
    written = mismatched = 0
    for tenant_id in Tenant.objects.order_by("pk").values_list("pk", flat=True):
        try:
            audit_checkpoint_write(tenant_id=tenant_id)
            written += 1
        except CheckpointMismatch:
            mismatched += 1
            logger.error("audit chain of tenant %s does not extend its last checkpoint: run verify_audit", tenant_id)
    return {"checkpointed": written, "mismatched": mismatched}


@shared_task(
    name="memgov.audit.checkpoint",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    max_retries=5,
    ignore_result=True,
)
def audit_checkpoint() -> dict[str, int]:
    return audit_checkpoint_all()
