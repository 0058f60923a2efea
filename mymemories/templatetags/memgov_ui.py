"""Template helpers for the "My memories" pages: translated labels and the header's state."""

from __future__ import annotations

from typing import Any

from django import template
from django.http import HttpRequest

from conversations.labels import EVENT_KIND_LABELS, SESSION_STATE_LABELS
from governance import labels
from governance.selectors.invitations import invitations_open_for_account
from memories.access import membership_for_user
from memories.models import Memory
from memories.selectors import confirmation_count_pending_for_subject, subject_is_paused

register = template.Library()


@register.filter
def type_label(code: str) -> str:
    return labels.label(labels.TYPE_LABELS, code)


@register.filter
def status_label(code: str) -> str:
    return labels.label(labels.STATUS_LABELS, code)


@register.filter
def session_state_label(code: str) -> str:
    return labels.label(SESSION_STATE_LABELS, code)


@register.filter
def event_kind_label(code: str) -> str:
    return labels.label(EVENT_KIND_LABELS, code)


@register.filter
def level_label(code: str) -> str:
    return labels.label(labels.LEVEL_LABELS, code)


@register.filter
def source_label(code: str) -> str:
    return labels.label(labels.SOURCE_LABELS, code)


@register.filter
def reason_label(memory: Memory) -> str:
    """Why it was kept: the translated text for the decision's code, else the stored reason."""
    found = labels.REASON_LABELS.get(memory.reason_code)
    return str(found) if found is not None else memory.reason


@register.simple_tag(takes_context=True)
def person_state(context: dict[str, Any]) -> dict[str, Any]:
    """The header's badge count and the "memory is paused" banner, computed once per request."""
    request: HttpRequest | None = context.get("request")
    if request is None or not getattr(request.user, "is_authenticated", False):
        return {"pending": 0, "paused": False, "member": False, "invitations": 0}
    cached = getattr(request, "_memgov_person_state", None)
    if cached is not None:
        return cached
    membership = membership_for_user(request.user)
    state: dict[str, Any] = {
        "pending": 0,
        "paused": False,
        "member": membership is not None,
        "invitations": invitations_open_for_account(username=request.user.get_username()).count(),
    }
    if membership is not None:
        state["pending"] = confirmation_count_pending_for_subject(
            tenant_id=membership.tenant_id, user_id=membership.subject_id
        )
        state["paused"] = subject_is_paused(tenant_id=membership.tenant_id, user_id=membership.subject_id)
    request._memgov_person_state = state  # type: ignore[attr-defined]
    return state
