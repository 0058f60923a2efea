"""Helpers for the session tests: a session of a subject, and appending plain messages to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from conversations.models import Event, Session
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import session_create


@pytest.fixture
def make_session(world: Any) -> Callable[..., Session]:
    def make(user_id: str = "alice", *, tenant: Any = None, app: str = "chat", **kwargs: Any) -> Session:
        tenant = tenant or world.demo
        return session_create(tenant_id=tenant.pk, user_id=user_id, app=app, actor="test", **kwargs)

    return make


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
