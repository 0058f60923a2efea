"""The audit rows of session actions: ids, counts and codes, never content (audit/services.py refuses text)."""

from __future__ import annotations

from typing import Any

from audit.events import Event as AuditKind
from audit.services import audit_fields
from conversations.models import Session


def session_audit(*, session: Session, event: AuditKind, actor: str, reason_code: str = "", **details: Any) -> dict:
    """One audit event about ``session``, ready for ``audit_append``. The app name is an identifier
    (``conversations.validation.IDENT``), so it may be recorded."""
    return audit_fields(
        tenant_id=session.tenant_id,
        event=event,
        actor=actor,
        scope="session",
        subject_id=session.user_id,
        reason_code=reason_code,
        details={"session_id": str(session.pk), "app": session.app, **details},
    )
