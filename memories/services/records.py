"""Memory record services: the only code that creates or changes memories and their versions.

Each function is one action: it runs in a transaction and writes its audit event in that same
transaction, so a change and its record in the log land together or not at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from dbkit.rows import insert_rows
from governance.models import AgentClient
from governance.pipeline.base import Scope
from governance.pipeline.lexicons.conflict import AspectValues
from governance.vocabulary import MemoryType, SourceType, Status
from memories import aspect_index
from memories.fingerprints import content_fingerprint
from memories.models import Memory, MemoryVersion, Subject
from memories.selectors import first_version
from memories.services.embeddings import memory_embed_inline, memory_embedding_delete
from memories.services.retrieval_index import retrieval_index_drop

# Statuses a person or agent may still change; deleted/expired memories are final.
MUTABLE_STATUSES = frozenset({Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL})


_TYPES = frozenset(MemoryType)
_SOURCES = frozenset(SourceType)
_STATUSES = frozenset(Status)


class MemoryStateError(ValueError):
    """The memory's status doesn't allow this change (e.g. resuming a deleted memory)."""


@dataclass(frozen=True)
class NewMemory:
    scope: Scope
    type: str
    content: str
    source_type: str
    source_message_id: str = ""
    confidence: float = 1.0
    sensitivity: str = "low"
    entity_types: tuple[str, ...] = ()
    expires_at: datetime | None = None
    status: str = Status.ACTIVE.value
    retention_policy: str = "user_controlled"
    reason_code: str = ""
    reason: str = ""
    policy_version: int = 0
    conflict_with: str | None = None
    fingerprint: str = ""  # content_fingerprint of content, when the caller has it already
    aspects: Mapping[str, AspectValues] | None = None  # what content says of its aspects, if parsed already

    def __post_init__(self) -> None:
        # The API checks its input; a record no reader knows how to show is refused here for every other caller.
        for name, value, allowed in (
            ("type", self.type, _TYPES),
            ("source_type", self.source_type, _SOURCES),
            ("status", self.status, _STATUSES),
        ):
            if value not in allowed:
                raise ValueError(f"unknown memory {name} {value!r}")


def touch_subject(*, tenant_id: int, user_id: str) -> None:
    """Mark the subject changed so watermark-based jobs revisit it (creating the subject row if new).

    One upsert rather than update-then-create: it runs on every write.
    """
    if not user_id:
        return
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    table = connection.ops.quote_name(Subject._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (tenant_id, user_id, memory_paused, changed_at, created_at)"  # noqa: S608
            " VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT (tenant_id, user_id) DO UPDATE SET changed_at = excluded.changed_at",
            [tenant_id, user_id, False, now, now],
        )


def _audit_memory(memory: Memory, *, event: Event, actor: str, **extra: object) -> None:
    audit_record(
        tenant_id=memory.tenant_id,
        event=event,
        actor=actor,
        memory_id=memory.id,
        memory_type=memory.type,
        scope=memory.level,
        subject_id=memory.user_id,
        sensitivity=memory.sensitivity,
        source_message_id=memory.source_message_id,
        agent_version=memory.agent.name if memory.agent_id else "",
        **extra,  # type: ignore[arg-type]
    )


def _add_version(memory: Memory, *, change: str, actor: str, reason: str = "") -> MemoryVersion:
    version = MemoryVersion(
        tenant_id=memory.tenant_id,
        memory=memory,
        version=memory.version,
        content=memory.content,
        type=memory.type,
        sensitivity=memory.sensitivity,
        change=change,
        change_reason=reason or None,
        changed_by=actor,
    )
    insert_rows([version])
    return version


@transaction.atomic(savepoint=False)
def memory_create(
    *, tenant_id: int, new: NewMemory, actor: str, agent: AgentClient | None = None, audit: bool = True
) -> Memory:
    """Store a memory (active or pending). It is its own first version until it changes
    (memories.selectors.first_version): most memories never change, and a write stores one row less.

    ``audit=False`` is for the write pipeline, which records its own, richer decision events in the
    same transaction.
    """
    scope = new.scope
    fingerprint = new.fingerprint or content_fingerprint(tenant_id=tenant_id, content=new.content)
    memory = Memory(
        tenant_id=tenant_id,
        level=scope.level,
        user_id=scope.user_id,
        team=scope.team,
        project=scope.project,
        session_id=scope.session_id,
        task_id=scope.task_id,
        type=new.type,
        fingerprint=fingerprint,
        **_index(
            tenant_id=tenant_id, owner=scope.user_id, fingerprint=fingerprint, content=new.content, found=new.aspects
        ),
        source_type=new.source_type,
        source_message_id=new.source_message_id,
        confidence=new.confidence,
        sensitivity=new.sensitivity,
        entity_types=list(new.entity_types),
        retention_policy=new.retention_policy,
        expires_at=new.expires_at,
        status=new.status,
        reason_code=new.reason_code,
        reason=new.reason,
        policy_version=new.policy_version,
        conflict_with=new.conflict_with,
        agent=agent,
        created_by=actor,
    )
    memory.content = new.content
    insert_rows([memory])
    memory_embed_inline(memory=memory, content=new.content, new=True)
    touch_subject(tenant_id=tenant_id, user_id=scope.user_id)
    if audit:
        event = Event.MEMORY_WRITE_APPROVED if new.status == Status.ACTIVE else Event.MEMORY_WRITE_REQUESTED
        _audit_memory(memory, event=event, actor=actor, policy_version=new.policy_version)
    return memory


def _index(
    *, tenant_id: int, owner: str, fingerprint: str, content: str, found: Mapping[str, AspectValues] | None
) -> dict[str, str]:
    """The comparison index's columns for this text of this owner (memories/aspect_index.py)."""
    if found is None:
        found = aspect_index.parsed(content)
    return aspect_index.index_fields(tenant_id=tenant_id, owner=owner, fingerprint=fingerprint, found=found)


def _keep_first_version(memory: Memory) -> None:
    """Before a memory's first change, store the first version it has been until now (unless a row
    from before lazy first versions holds it already). The memory is locked, so this runs once."""
    if memory.version != 1 or MemoryVersion.objects.filter(memory_id=memory.pk, version=1).exists():
        return
    version = first_version(memory)
    insert_rows([version])
    # created_at is auto_now_add; the first version dates from the memory itself.
    MemoryVersion.objects.filter(pk=version.pk).update(created_at=memory.created_at)


def _lock(memory: Memory) -> Memory:
    return (
        Memory.objects.select_for_update(of=("self",))
        .select_related("agent")
        .get(pk=memory.pk, tenant_id=memory.tenant_id)
    )


@transaction.atomic
def memory_update(
    *,
    memory: Memory,
    actor: str,
    content: str | None = None,
    aspects: Mapping[str, AspectValues] | None = None,
    type: str | None = None,
    sensitivity: str | None = None,
    expires_at: datetime | None = None,
    reason: str = "",
    change: str = "edited",
) -> Memory:
    """Change a memory's content or type: a new version, the earlier ones kept for history.

    ``aspects``: what the new content says of its aspects, when the caller parsed it already.
    ``expires_at`` can only bring the expiry forward (see ``memories.services.edits``)."""
    memory = _lock(memory)
    if memory.status not in MUTABLE_STATUSES:
        raise MemoryStateError(f"a {memory.status} memory can't be edited")
    _keep_first_version(memory)
    fields = ["version", "updated_at"]
    if content is not None:
        memory.content = content
        memory.fingerprint = content_fingerprint(tenant_id=memory.tenant_id, content=content)
        index = _index(
            tenant_id=memory.tenant_id,
            owner=memory.user_id,
            fingerprint=memory.fingerprint,
            content=content,
            found=aspects,
        )
        memory.aspect_key, memory.aspect_tags = index["aspect_key"], index["aspect_tags"]
        fields += ["content", "fingerprint", "aspect_key", "aspect_tags"]
        memory_embed_inline(memory=memory, content=content)
    if type is not None:
        memory.type = type
        fields.append("type")
    if sensitivity is not None:
        memory.sensitivity = sensitivity
        fields.append("sensitivity")
    if expires_at is not None and (memory.expires_at is None or expires_at < memory.expires_at):
        memory.expires_at = expires_at
        fields.append("expires_at")
    memory.version += 1
    memory.save(update_fields=fields)
    _add_version(memory, change=change, actor=actor, reason=reason)
    touch_subject(tenant_id=memory.tenant_id, user_id=memory.user_id)
    _audit_memory(
        memory, event=Event.MEMORY_UPDATED, actor=actor, details={"version": memory.version, "change": change}
    )
    return memory


@transaction.atomic
def memory_rollback(*, memory: Memory, to_version: int, actor: str) -> Memory:
    """Make an earlier version current again, as a new version (history is never rewritten)."""
    target = MemoryVersion.objects.filter(memory_id=memory.pk, tenant_id=memory.tenant_id, version=to_version).first()
    if target is None and to_version == 1 and memory.version == 1:
        target = first_version(memory)
    if target is None:
        raise MemoryStateError(f"version {to_version} does not exist")
    memory = memory_update(
        memory=memory,
        actor=actor,
        content=target.content,
        type=target.type,
        sensitivity=target.sensitivity,
        change="rolled_back",
    )
    _audit_memory(
        memory,
        event=Event.MEMORY_ROLLED_BACK,
        actor=actor,
        details={"to_version": to_version, "version": memory.version},
    )
    return memory


def _set_status(
    memory: Memory, *, status: Status, allowed_from: Iterable[Status], event: Event, actor: str, reason_code: str = ""
) -> Memory:
    memory = _lock(memory)
    if memory.status == status:
        return memory
    if memory.status not in set(allowed_from):
        raise MemoryStateError(f"a {memory.status} memory can't become {status}")
    previous = memory.status
    memory.status = status
    memory.save(update_fields=["status", "updated_at"])
    touch_subject(tenant_id=memory.tenant_id, user_id=memory.user_id)
    _audit_memory(
        memory,
        event=event,
        actor=actor,
        reason_code=reason_code,
        details={"from_status": previous, "to_status": status.value},
    )
    return memory


@transaction.atomic
def memory_pause(*, memory: Memory, actor: str) -> Memory:
    return _set_status(
        memory, status=Status.PAUSED, allowed_from={Status.ACTIVE}, event=Event.MEMORY_PAUSED, actor=actor
    )


@transaction.atomic
def memory_resume(*, memory: Memory, actor: str) -> Memory:
    return _set_status(
        memory, status=Status.ACTIVE, allowed_from={Status.PAUSED}, event=Event.MEMORY_RESUMED, actor=actor
    )


@transaction.atomic
def memory_archive(*, memory: Memory, actor: str, reason_code: str = "") -> Memory:
    memory = _set_status(
        memory,
        status=Status.ARCHIVED,
        allowed_from={Status.ACTIVE, Status.PAUSED},
        event=Event.MEMORY_ARCHIVED,
        actor=actor,
        reason_code=reason_code,
    )
    return memory


@transaction.atomic
def memory_expire(*, memory: Memory, actor: str, reason_code: str = "") -> Memory:
    return _set_status(
        memory,
        status=Status.EXPIRED,
        allowed_from={Status.ACTIVE, Status.PAUSED, Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL},
        event=Event.MEMORY_EXPIRED,
        actor=actor,
        reason_code=reason_code,
    )


@transaction.atomic
def memory_delete(*, memory: Memory, actor: str) -> Memory:
    """Delete at once from every read; its vector and its subject's retrieval index at once; content and
    versions are purged after the grace period. The row is locked first (by ``_set_status``), then the
    index: the order a retrieval index refresh takes them in."""
    deleted = _set_status(
        memory,
        status=Status.DELETED,
        allowed_from=MUTABLE_STATUSES | {Status.ARCHIVED, Status.EXPIRED},
        event=Event.MEMORY_DELETED,
        actor=actor,
    )
    memory_embedding_delete(memory_id=deleted.pk)
    retrieval_index_drop(tenant_id=deleted.tenant_id, owner=deleted.user_id)
    return deleted


# What a deleted memory may go back to: the statuses a person's own delete leaves from. A pending memory
# that was declined is gone for good (restoring it would skip the consent it never got).
RESTORABLE_FROM = frozenset({Status.ACTIVE, Status.PAUSED, Status.ARCHIVED})


@transaction.atomic
def memory_restore(*, memory: Memory, actor: str) -> Memory:
    """Undo a delete during the purge grace: the memory returns to the status it was deleted from."""
    from memories.selectors import status_before_delete

    memory = _lock(memory)
    previous = status_before_delete(memory=memory)
    if memory.status != Status.DELETED or previous not in RESTORABLE_FROM:
        raise MemoryStateError("only a memory you deleted can be restored, and only before it is purged")
    memory.status = previous
    memory.save(update_fields=["status", "updated_at"])
    touch_subject(tenant_id=memory.tenant_id, user_id=memory.user_id)
    _audit_memory(
        memory, event=Event.MEMORY_RESTORED, actor=actor, details={"from_status": "deleted", "to_status": previous}
    )
    return memory
