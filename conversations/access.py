"""Which sessions a caller may touch: an agent any session of its tenant, a person their own. A missing
session and someone else's answer the same 404."""

from __future__ import annotations

from django.http import Http404

from conversations.models import Session
from conversations.selectors.sessions import session_get
from memories.access import Caller


def session_for_caller(caller: Caller, session_id: object) -> Session:
    session = session_get(tenant_id=caller.tenant_id, session_id=session_id, user_id=caller.subject_id)
    if session is None:
        raise Http404("no such session")
    return session
