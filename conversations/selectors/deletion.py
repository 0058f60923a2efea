"""What deleting a session would remove: the reads its confirm page names and its service acts on."""

from __future__ import annotations

from dataclasses import dataclass

from conversations.models import Event, Session
from governance.vocabulary import Level, Status
from memories.models import Memory, MemorySource

CHUNK = 500


@dataclass(frozen=True)
class SessionDeletionTargets:
    """The memories a session's deletion removes: always ``scoped`` (its session- and task-scope memories),
    and ``learned`` (long-term memories learned only from it) when the person also asks to forget those."""

    scoped: list[Memory]
    learned: list[Memory]

    def memories(self, *, forget_extracted: bool) -> list[Memory]:
        return self.scoped + (self.learned if forget_extracted else [])


def session_deletion_targets(session: Session) -> SessionDeletionTargets:
    """The memories deleting ``session`` would remove (see ``conversations.services.deletion``)."""
    sid = str(session.pk)
    live = Memory.objects.filter(tenant_id=session.tenant_id, user_id=session.user_id).exclude(status=Status.DELETED)
    scoped = list(live.filter(session_id=sid, level__in=[Level.SESSION, Level.TASK]).order_by("created_at", "id"))
    sources = MemorySource.objects.filter(tenant_id=session.tenant_id, session_id=sid)
    learned_here = set(sources.values_list("memory_id", flat=True))
    elsewhere = set(
        MemorySource.objects.filter(tenant_id=session.tenant_id, memory_id__in=learned_here)
        .exclude(session_id=sid)
        .values_list("memory_id", flat=True)
    )
    learned = list(live.filter(pk__in=learned_here - elsewhere))
    event_ids = [str(pk) for pk in Event.objects.filter(session_id=session.pk).values_list("id", flat=True)]
    for start in range(0, len(event_ids), CHUNK):
        learned += list(live.filter(source_message_id__in=event_ids[start : start + CHUNK], sources__isnull=True))
    seen = {memory.pk for memory in scoped}
    unique = []
    for memory in sorted(learned, key=lambda m: (m.created_at, m.pk)):
        if memory.pk not in seen:
            seen.add(memory.pk)
            unique.append(memory)
    return SessionDeletionTargets(scoped=scoped, learned=unique)
