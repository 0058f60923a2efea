"""Sessions, their events and snapshots, and the app/user state they share."""

from conversations.models.events import Event, Snapshot
from conversations.models.sessions import ScopedState, Session

__all__ = ["Event", "ScopedState", "Session", "Snapshot"]
