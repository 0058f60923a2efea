"""Finding sessions: one by id, a subject's (resume: select), the most recent (resume: last).

Every selector takes the tenant, and the subject where a person asks; a deleted session is found by none.
"""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from conversations.models import Session
from conversations.sql import uuid_param
from dbkit.rows import select_instances


def _live(tenant_id: int) -> QuerySet[Session]:
    return Session.objects.filter(tenant_id=tenant_id, deleted_at__isnull=True)


def session_get(*, tenant_id: int, session_id: object, user_id: str | None = None) -> Session | None:
    """The session, if it is in the tenant (and the subject's, when ``user_id`` is given).

    Raw SQL (``dbkit.rows.select_instances``), as ``client_for_key``: every Sessions API request runs this
    lookup, and the ORM's query building cost several times the query.
    """
    try:
        pk = session_id if isinstance(session_id, uuid.UUID) else uuid.UUID(str(session_id))
    except ValueError:
        return None
    where = "id = %s AND tenant_id = %s AND deleted_at IS NULL"
    params: list[object] = [uuid_param(pk), tenant_id]
    if user_id is not None:
        where += " AND user_id = %s"
        params.append(user_id)
    found = select_instances(Session, where, params)
    return found[0] if found else None  # type: ignore[return-value]


def sessions_for_subject(
    *, tenant_id: int, user_id: str, app: str | None = None, workspace: str | None = None
) -> QuerySet[Session]:
    """A subject's sessions, most recently active first (optionally of one app and workspace)."""
    sessions = _live(tenant_id).filter(user_id=user_id)
    if app is not None:
        sessions = sessions.filter(app=app)
    if workspace is not None:
        sessions = sessions.filter(workspace=workspace)
    return sessions.order_by("-last_active_at", "-id")


def session_last(
    *, tenant_id: int, user_id: str, app: str | None = None, workspace: str | None = None
) -> Session | None:
    return sessions_for_subject(tenant_id=tenant_id, user_id=user_id, app=app, workspace=workspace).first()


def session_ids_known(*, tenant_id: int, user_id: str, session_ids: list[str]) -> set[str]:
    """Which of these session ids name a live session of the subject (the rest are other systems' ids)."""
    valid = []
    for value in session_ids:
        try:
            valid.append(uuid.UUID(value))
        except ValueError:
            continue
    rows = _live(tenant_id).filter(user_id=user_id, pk__in=valid).values_list("pk", flat=True)
    return {str(pk) for pk in rows}
