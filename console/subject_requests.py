"""Reads for the compliance officer's subject requests: does the tenant know this subject, and the
erasure receipts. The export itself is ``memories.services.export.subject_export`` (audited)."""

from __future__ import annotations

from django.db.models import QuerySet

from audit.models import AuditEvent
from governance.models import Membership
from memories.models import ErasureReceipt, Memory, Subject


def subject_known(*, tenant_id: int, subject_id: str) -> bool:
    """Whether the tenant holds or held anything about this subject id (else: the same 404 as missing)."""
    lookups = (
        Subject.objects.filter(tenant_id=tenant_id, user_id=subject_id),
        Memory.objects.filter(tenant_id=tenant_id, user_id=subject_id),
        Membership.objects.filter(tenant_id=tenant_id, subject_id=subject_id),
        ErasureReceipt.objects.filter(tenant_id=tenant_id, user_id=subject_id),
        AuditEvent.objects.filter(tenant_id=tenant_id, subject_id=subject_id),
    )
    return any(query.exists() for query in lookups)


def subject_memory_count(*, tenant_id: int, subject_id: str) -> int:
    return Memory.objects.filter(tenant_id=tenant_id, user_id=subject_id).count()


def erasure_receipt_list(*, tenant_id: int, subject_id: str = "") -> QuerySet[ErasureReceipt]:
    """The tenant's erasure receipts, newest first; one subject's when ``subject_id`` is given."""
    receipts = ErasureReceipt.objects.filter(tenant_id=tenant_id)
    if subject_id:
        receipts = receipts.filter(user_id=subject_id)
    return receipts.order_by("-created_at", "-id")
