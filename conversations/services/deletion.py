"""Deleting a session: its events, snapshots and summaries, and the session- and task-scope memories
written in it — and, when the person asks (``forget_extracted``), the long-term memories learned only
from it: every ``MemorySource`` of the memory names this session (a memory said again in another
session stays), or, for a memory written before provenance was kept, its source event is one of this
session's. The session's provenance rows go with it either way. Erasing the subject removes them all.

A fork shares its prefix with the session it came from. Deleting that session removes everything of it
that no fork's history runs through; the events a fork still needs stay, in a hidden remainder of the
deleted session (no title, in no list, readable only as the fork's prefix), until the last fork that
needs them is deleted too. Every deletion is audited with counts, never content.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from audit.events import Event as AuditKind
from audit.services import audit_append
from conversations.models import Event, Session, Snapshot
from conversations.selectors.deletion import session_deletion_targets
from conversations.services.audit import session_audit
from conversations.services.locking import session_lock
from conversations.sql import as_uuid, table, uuid_param
from memories.models import MemorySource
from memories.services.records import memory_delete

CHUNK = 500


@dataclass(frozen=True)
class SessionDeletion:
    session_id: uuid.UUID
    events_deleted: int
    events_kept_for_forks: int
    memories_deleted: int


def _needed_by_forks(session: Session) -> set[uuid.UUID]:
    """The session's events that another session's history runs through: every ancestor, inside this
    session, of a fork point that lies in it."""
    events, sessions = table(Event), table(Session)
    sql = (
        f"WITH RECURSIVE up(id, parent_id) AS ("  # noqa: S608
        f" SELECT e.id, e.parent_id FROM {events} e JOIN {sessions} s ON s.fork_event_id = e.id"
        "  WHERE e.session_id = %s AND s.id != %s AND s.tenant_id = %s"
        f" UNION SELECT e.id, e.parent_id FROM {events} e JOIN up ON e.id = up.parent_id WHERE e.session_id = %s)"
        " SELECT id FROM up"
    )
    sid = uuid_param(session.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, [sid, sid, session.tenant_id, sid])
        return {as_uuid(row[0]) for row in cursor.fetchall()}  # type: ignore[misc]


def _delete_events(session: Session, keep: set[uuid.UUID]) -> int:
    """Delete the session's events (and their snapshots) except ``keep``; returns how many went."""
    ids = list(Event.objects.filter(session_id=session.pk).values_list("id", flat=True))
    doomed = [event_id for event_id in ids if event_id not in keep]
    for start in range(0, len(doomed), CHUNK):
        chunk = doomed[start : start + CHUNK]
        # Snapshots first: they point at their events without a cascade (so that events delete in one
        # statement instead of through Django's collector).
        Snapshot.objects.filter(event_id__in=chunk).delete()
        Event.objects.filter(pk__in=chunk).delete()
    return len(doomed)


def _delete_memories(session: Session, *, actor: str, forget_extracted: bool) -> int:
    doomed = session_deletion_targets(session).memories(forget_extracted=forget_extracted)
    for memory in doomed:
        memory_delete(memory=memory, actor=actor)
    MemorySource.objects.filter(tenant_id=session.tenant_id, session_id=str(session.pk)).delete()
    return len(doomed)


@transaction.atomic
def session_remove(session: Session, *, actor: str, reason_code: str, forget_extracted: bool) -> SessionDeletion:
    """Delete a session already locked by the caller's transaction (the purge job claims its own)."""
    session_id = session.pk
    # Where the fork point lies (the parent, or an earlier ancestor): that session may be a deleted
    # one's remainder, kept only for this fork.
    holder = None
    if session.fork_event_id is not None:  # only a fork has a fork point to look up
        holder = Event.objects.filter(pk=session.fork_event_id).values_list("session_id", flat=True).first()
    memories = _delete_memories(session, actor=actor, forget_extracted=forget_extracted)
    keep = _needed_by_forks(session)
    deleted = _delete_events(session, keep)
    if keep:
        session.deleted_at = session.deleted_at or timezone.now()
        session.title = None
        session.state = "ended"
        session.ended_at = session.ended_at or session.deleted_at
        session.save(update_fields=["deleted_at", "title", "state", "ended_at"])
    audit = session_audit(
        session=session,
        event=AuditKind.SESSION_DELETED,
        actor=actor,
        reason_code=reason_code,
        events_deleted=deleted,
        events_kept_for_forks=len(keep),
        memories_deleted=memories,
    )
    if not keep:
        session.delete()
    audit_append([audit])
    if holder is not None and holder != session_id:
        _collect_remainder(holder, actor=actor)
    return SessionDeletion(session_id, deleted, len(keep), memories)


def _collect_remainder(session_id: uuid.UUID, *, actor: str) -> None:
    """A deleted session's hidden remainder loses what its forks no longer need (all of it, at the last)."""
    remainder = Session.objects.filter(pk=session_id, deleted_at__isnull=False).first()
    if remainder is not None:
        session_remove(remainder, actor=actor, reason_code="fork_deleted", forget_extracted=False)


@transaction.atomic
def session_delete(
    *, tenant_id: int, session_id: uuid.UUID, actor: str, reason_code: str = "deleted", forget_extracted: bool = False
) -> SessionDeletion:
    """Delete a session and what hangs off it (see the module's docstring); audited with counts."""
    session = session_lock(tenant_id=tenant_id, session_id=session_id)
    return session_remove(session, actor=actor, reason_code=reason_code, forget_extracted=forget_extracted)
