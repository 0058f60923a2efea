"""Reads of memory records. Every selector takes the tenant (and the subject where it applies):
there is no query path that returns rows across tenants."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from governance.vocabulary import Level, Status
from memories.models import Confirmation, ErasureReceipt, Memory, MemoryVersion, SessionOptOut, Subject

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


def first_version(memory: Memory) -> MemoryVersion:
    """The first version of a memory that never changed, unsaved: such a memory is its own first
    version (a write stores no version row; the first change writes it, then the new one)."""
    version = MemoryVersion(
        tenant_id=memory.tenant_id,
        memory=memory,
        version=1,
        type=memory.type,
        sensitivity=memory.sensitivity,
        change="created",
        changed_by=memory.created_by,
        created_at=memory.created_at,
    )
    version.content = memory.readable_content  # None: unreadable, shown as such
    return version


def complete_history(memory: Memory, stored: Iterable[MemoryVersion]) -> list[MemoryVersion]:
    """``stored`` versions of ``memory``, with its first version when no row holds it; newest first."""
    versions = list(stored)
    if memory.version == 1 and all(version.version != 1 for version in versions):
        versions.append(first_version(memory))
    return sorted(versions, key=lambda version: version.version, reverse=True)


def memory_versions(*, memory: Memory) -> list[MemoryVersion]:
    """Every version of the memory, newest first."""
    stored = MemoryVersion.objects.filter(tenant_id=memory.tenant_id, memory=memory)
    return complete_history(memory, stored)


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


# --- "My memories" pages (additive) ---------------------------------------------------------
# Content is encrypted and can't be filtered in SQL: text search decrypts the subject's own
# memories (bounded) and matches the normalized form in Python.
SEARCH_LIMIT = 1000


# The list's orders, newest first. "used" is when an agent last received the memory (``last_used_at``,
# set by the read path with each ``memory_injected``; a preview doesn't count); never-used ones come last.
MEMORY_ORDERS = {
    "changed": ("-updated_at", "-id"),
    "created": ("-created_at", "-id"),
    "used": (F("last_used_at").desc(nulls_last=True), "-updated_at", "-id"),
}


def memory_search_for_subject(
    *,
    tenant_id: int,
    user_id: str,
    text: str = "",
    types: tuple[str, ...] = (),
    levels: tuple[str, ...] = (),
    statuses: tuple[str, ...] = LIVE_STATUSES,
    order: str = "changed",
) -> list[Memory]:
    """The subject's memories filtered by type/scope/status in SQL, then by ``text`` on decrypted content;
    in ``order`` (a key of ``MEMORY_ORDERS``), which also decides which are kept past ``SEARCH_LIMIT``."""
    from governance.pipeline.normalize import normalize_content

    query = memory_list_for_subject(tenant_id=tenant_id, user_id=user_id, statuses=statuses)
    query = query.order_by(*MEMORY_ORDERS[order])
    if types:
        query = query.filter(type__in=types)
    if levels:
        query = query.filter(level__in=levels)
    rows = list(query[:SEARCH_LIMIT])
    needle = normalize_content(text) if text else ""
    if not needle:
        return rows
    return [
        memory
        for memory in rows
        if needle in normalize_content(memory.readable_content or "")
        or needle in normalize_content(" ".join((memory.project, memory.team, memory.session_id, memory.task_id)))
    ]


def memory_type_counts_for_subject(
    *, tenant_id: int, user_id: str, statuses: tuple[str, ...] = LIVE_STATUSES
) -> dict[str, int]:
    """How many of the subject's memories there are of each type (types with none are absent)."""
    rows = (
        Memory.objects.filter(tenant_id=tenant_id, user_id=user_id, status__in=statuses)
        .values("type")
        .annotate(count=Count("id"))
        .order_by()
    )
    return {row["type"]: row["count"] for row in rows}


def memory_list_by_ids_for_subject(
    *, tenant_id: int, user_id: str, memory_ids: Iterable[object], statuses: tuple[str, ...] = LIVE_STATUSES
) -> list[Memory]:
    """Those of ``memory_ids`` that are the subject's own memories in ``statuses``, in the order asked;
    someone else's, a shared rule's and a missing id alike are simply absent."""
    if not user_id:  # shared rules have no subject: a blank subject is nobody
        return []
    ids = list(dict.fromkeys(memory_ids))
    rows = Memory.objects.select_related("agent").filter(
        tenant_id=tenant_id, user_id=user_id, status__in=statuses, pk__in=ids
    )
    found = {row.pk: row for row in rows}
    return [found[memory_id] for memory_id in ids if memory_id in found]


def confirmation_list_pending_for_subject(*, tenant_id: int, user_id: str) -> QuerySet[Confirmation]:
    """Pending memories waiting for this subject's own yes or no (not admin approvals), not yet expired."""
    return (
        Confirmation.objects.select_related("memory", "memory__agent")
        .filter(
            tenant_id=tenant_id,
            memory__user_id=user_id,
            confirm_by="user",
            state=Confirmation.State.PENDING,
            expires_at__gt=timezone.now(),
            memory__status=Status.PENDING_CONFIRMATION,
        )
        .order_by("-created_at", "-id")
    )


def confirmation_count_pending_for_subject(*, tenant_id: int, user_id: str) -> int:
    return confirmation_list_pending_for_subject(tenant_id=tenant_id, user_id=user_id).count()


def confirmation_get_for_subject(*, tenant_id: int, user_id: str, confirmation_id: object) -> Confirmation | None:
    """A pending confirmation this subject may settle; None for missing, settled and not-yours alike."""
    pending = confirmation_list_pending_for_subject(tenant_id=tenant_id, user_id=user_id)
    return pending.filter(pk=confirmation_id).first()


def session_ids_for_subject(*, tenant_id: int, user_id: str) -> list[str]:
    """Sessions the subject has live memories in, newest first (for "clear this session")."""
    rows = (
        Memory.objects.filter(tenant_id=tenant_id, user_id=user_id, status__in=LIVE_STATUSES)
        .exclude(session_id="")
        .order_by("-created_at")
        .values_list("session_id", flat=True)
    )
    return list(dict.fromkeys(rows))


def session_opt_outs_for_subject(*, tenant_id: int, user_id: str) -> list[SessionOptOut]:
    return list(SessionOptOut.objects.filter(tenant_id=tenant_id, user_id=user_id).order_by("-created_at"))


def erasure_receipt_get(*, tenant_id: int, user_id: str, receipt_id: object) -> ErasureReceipt | None:
    """A receipt of this subject's own erasure (the person may look at it after erasing)."""
    return ErasureReceipt.objects.filter(tenant_id=tenant_id, user_id=user_id, pk=receipt_id).first()


def status_before_delete(*, memory: Memory) -> str | None:
    """The status a deleted memory was deleted from, as its memory_deleted event recorded; None if none did
    (a declined confirmation is deleted without one)."""
    from audit.models import AuditEvent

    details = (
        AuditEvent.objects.filter(tenant_id=memory.tenant_id, memory_id=memory.pk, event="memory_deleted")
        .order_by("-seq")
        .values_list("details", flat=True)
        .first()
    )
    return (details or {}).get("from_status")


def memory_list_recently_deleted(*, tenant_id: int, user_id: str) -> list[Memory]:
    """The subject's memories deleted by a delete (not a declined confirmation) and not purged yet,
    most recently deleted first. Only their owner is ever shown these."""
    from audit.models import AuditEvent

    rows = list(
        Memory.objects.filter(tenant_id=tenant_id, user_id=user_id, status=Status.DELETED).order_by("-updated_at")[
            :SEARCH_LIMIT
        ]
    )
    deleted_by_person = set(
        AuditEvent.objects.filter(
            tenant_id=tenant_id, memory_id__in=[m.pk for m in rows], event="memory_deleted"
        ).values_list("memory_id", flat=True)
    )
    return [memory for memory in rows if memory.pk in deleted_by_person]


def team_scope_live_count(*, tenant_id: int, team_slug: str, subject_id: str) -> int:
    """How many of one person's memories at one team's scope a removal from that team would invalidate."""
    return Memory.objects.filter(
        tenant_id=tenant_id,
        level=Level.TEAM,
        team=team_slug,
        user_id=subject_id,
        status__in=(Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL),
    ).count()
