"""Helpers for the session tests: appending plain messages to a session, and reading it afresh. (A module of
its own, not the conftest: ``from conftest import …`` finds whichever conftest was imported first.)"""

from __future__ import annotations

from conversations.models import Event, Session
from conversations.services.events import NewEvent, session_events_append


def append(session: Session, *items: str | NewEvent, actor: str = "test") -> list[Event]:
    """Append messages (a str is a user message), a hundred per call; returns the stored events."""
    events = [NewEvent(kind="user_message", content=item) if isinstance(item, str) else item for item in items]
    stored: list[Event] = []
    for start in range(0, len(events), 100):
        appended = session_events_append(
            tenant_id=session.tenant_id, session_id=session.pk, events=events[start : start + 100], actor=actor
        )
        stored += [item.event for item in appended]
    return stored


def fresh(session: Session) -> Session:
    return Session.objects.get(pk=session.pk)
