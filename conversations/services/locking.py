"""One session's writes run one at a time: its row is locked for the transaction.

PostgreSQL: ``SELECT … FOR UPDATE`` on the session row; a second append waits for the first to commit
and then reads the leaf and ``next_seq`` it left. SQLite: every write transaction is ``BEGIN IMMEDIATE``
(config/settings.py), so writers are serialized by the database already. The unique (session, seq)
constraint is the backstop either way.
"""

from __future__ import annotations

from django.db import connection

from conversations.models import Session
from conversations.services.errors import SessionStateError


def session_lock(*, tenant_id: int, session_id: object) -> Session:
    """The live session, locked until the transaction ends. Call inside ``transaction.atomic``."""
    sessions = Session.objects.filter(pk=session_id, tenant_id=tenant_id, deleted_at__isnull=True)
    if connection.features.has_select_for_update:
        sessions = sessions.select_for_update(of=("self",))
    session = sessions.first()
    if session is None:
        raise SessionStateError("the session was deleted", code="gone")
    return session
