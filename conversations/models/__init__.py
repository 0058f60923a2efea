"""Sessions, their events and snapshots, the app/user state they share, and phase 1's claims."""

from conversations.models.events import Event, Snapshot
from conversations.models.extraction import ExtractionClaim, ExtractionSignal, ExtractionWrite
from conversations.models.sessions import ScopedState, Session

__all__ = ["Event", "ExtractionClaim", "ExtractionSignal", "ExtractionWrite", "ScopedState", "Session", "Snapshot"]
