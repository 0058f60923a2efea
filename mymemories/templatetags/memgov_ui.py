"""Template helpers for the "My memories" pages: translated labels and the header's state."""

from __future__ import annotations

from typing import Any

from django import template
from django.http import HttpRequest
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from conversations.labels import EVENT_KIND_LABELS, SESSION_STATE_LABELS
from governance import labels
from governance.selectors.invitations import invitations_open_for_account
from governance.vocabulary import Status
from memories.access import membership_for_user
from memories.models import Confirmation, Memory
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


def _settled(memory: Memory) -> Confirmation | None:
    """The accepted confirmation or approval of a memory that waited for one, if it was settled."""
    if memory.reason_code not in _ASKED or memory.status in (Status.PENDING_CONFIRMATION, Status.PENDING_APPROVAL):
        return None
    try:
        confirmation = memory.confirmation
    except Confirmation.DoesNotExist:
        return None
    return confirmation if confirmation.state == Confirmation.State.ACCEPTED else None


_ASKED = {"needs_user_confirmation", "conflict_needs_confirmation", "needs_admin_approval"}


def _who(actor: str, *, you: str) -> str:
    """``user:alice`` → alice (or "you"), ``agent:x`` → the agent's name: never the raw actor code."""
    kind, _sep, name = actor.partition(":")
    if kind == "user" and actor == you:
        return str(_("you"))
    return name or actor


@register.simple_tag(takes_context=True)
def memory_why(context: dict[str, Any], memory: Memory) -> str:
    """Why it is kept *now*: after a confirmation or approval, who settled it and when."""
    settled = _settled(memory)
    if settled is None or settled.decided_at is None:
        return reason_label(memory) or "—"
    date = date_format(localtime(settled.decided_at), "DATETIME_FORMAT")
    you = _actor_of(context)
    if settled.confirm_by == "admin":
        return str(labels.DECIDED_WHY["approved"]) % {"who": _who(settled.decided_by, you=you), "date": date}
    if settled.decided_by == you:
        return str(labels.DECIDED_WHY["confirmed_by_you"]) % {"date": date}
    return str(labels.DECIDED_WHY["confirmed_for_you"]) % {"who": _who(settled.decided_by, you=you), "date": date}


def _actor_of(context: dict[str, Any]) -> str:
    request: HttpRequest | None = context.get("request")
    user = getattr(request, "user", None)
    return f"user:{user.get_username()}" if user is not None and user.is_authenticated else ""


@register.simple_tag(takes_context=True)
def memory_settled_note(context: dict[str, Any], memory: Memory) -> str:
    """For "From": who turned the agent's request into a memory ("" when nobody had to)."""
    settled = _settled(memory)
    if settled is None:
        return ""
    you = _actor_of(context)
    if settled.confirm_by == "admin":
        return str(_("approved by %(who)s")) % {"who": _who(settled.decided_by, you=you)}
    if settled.decided_by == you:
        return str(_("confirmed by you"))
    return str(_("confirmed by %(who)s")) % {"who": _who(settled.decided_by, you=you)}


@register.simple_tag
def rule_reach(applies: str, where: str) -> str:
    return labels.label(labels.RULE_REACH_LABELS, applies) % {"where": where}


@register.filter
def role_label(code: str) -> str:
    return labels.label(labels.ROLE_LABELS, code)


@register.filter
def actor_label(actor: str) -> str:
    return labels.actor_label(actor)


@register.simple_tag
def memory_changed(memory: Memory) -> bool:
    """Changed since it was written (an edit, a rollback, a pause): the card then says when, last."""
    if memory.updated_at is None or memory.created_at is None:
        return False
    return memory.version > 1 or (memory.updated_at - memory.created_at).total_seconds() > 60
