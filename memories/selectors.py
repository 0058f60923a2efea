"""Reads of memory records. Every selector takes the tenant (and the subject where it applies):
there is no query path that returns rows across tenants."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils import timezone

from governance.vocabulary import Status
from memories.models import Confirmation, Memory, MemoryVersion, SessionOptOut, Subject

LIVE_STATUSES = (Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL)


def memory_get(*, tenant_id: int, memory_id: object, user_id: str | None = None) -> Memory | None:
    """One memory of this tenant (and subject, when given). None for missing and not-yours alike."""
    query = Memory.objects.select_related("agent").filter(tenant_id=tenant_id, pk=memory_id)
    if user_id is not None:
        query = query.filter(user_id=user_id)
    return query.first()


def memory_list_for_subject(
    *, tenant_id: int, user_id: str, statuses: tuple[str, ...] = LIVE_STATUSES
) -> QuerySet[Memory]:
    return (
        Memory.objects.select_related("agent")
        .filter(tenant_id=tenant_id, user_id=user_id, status__in=statuses)
        .order_by("-updated_at", "-id")
    )


def memory_list_active_for_subject(*, tenant_id: int, user_id: str) -> QuerySet[Memory]:
    """Active and not past expiry, whether or not the expiry sweep has run."""
    now = timezone.now()
    return memory_list_for_subject(tenant_id=tenant_id, user_id=user_id, statuses=(Status.ACTIVE,)).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    )


def memory_versions(*, memory: Memory) -> QuerySet[MemoryVersion]:
    return MemoryVersion.objects.filter(tenant_id=memory.tenant_id, memory=memory).order_by("-version")


def subject_is_paused(*, tenant_id: int, user_id: str) -> bool:
    return Subject.objects.filter(tenant_id=tenant_id, user_id=user_id, memory_paused=True).exists()


def session_is_opted_out(*, tenant_id: int, user_id: str, session_id: str) -> bool:
    if not session_id:
        return False
    return SessionOptOut.objects.filter(tenant_id=tenant_id, user_id=user_id, session_id=session_id).exists()


def confirmation_get(*, tenant_id: int, confirmation_id: object) -> Confirmation | None:
    return (
        Confirmation.objects.select_related("memory", "memory__agent")
        .filter(tenant_id=tenant_id, pk=confirmation_id)
        .first()
    )
