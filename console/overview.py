"""Reads for the console's overview: what waits for an admin."""

from __future__ import annotations

from django.utils import timezone

from memories.models import Confirmation


def rules_waiting_count(*, tenant_id: int) -> int:
    """Proposed shared rules waiting for an admin's approval (not lapsed)."""
    return Confirmation.objects.filter(
        tenant_id=tenant_id, confirm_by="admin", state=Confirmation.State.PENDING, expires_at__gt=timezone.now()
    ).count()
