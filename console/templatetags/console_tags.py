"""Template helpers for the console: whether to show the "Console" link, compact JSON, and the translated
label of every code a page shows (from governance.labels)."""

from __future__ import annotations

import json
from typing import Any

from django import template

from console.access import ConsoleAccess, console_access_for
from governance import labels

register = template.Library()


@register.simple_tag(takes_context=True)
def console_access(context: dict[str, Any]) -> ConsoleAccess | None:
    """The person's console access (None for members, agents and visitors): base.html's "Console" link."""
    request = context.get("request")
    return console_access_for(request.user) if request is not None else None


@register.filter
def json_compact(value: Any) -> str:
    """An audit event's ``details`` as one line of JSON (ids, codes and counts only; autoescaped)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# Every code the console shows goes through governance.labels: one mapping, translated.
@register.filter
def event_label(code: str) -> str:
    return labels.label(labels.EVENT_LABELS, code)


@register.filter
def role_label(code: str) -> str:
    return labels.label(labels.ROLE_LABELS, code)


@register.filter
def sensitivity_label(code: str) -> str:
    return labels.label(labels.SENSITIVITY_LABELS, code)


@register.filter
def decision_label(code: str) -> str:
    return labels.label(labels.DECISION_LABELS, code)


@register.filter
def audit_reason_label(code: str) -> str:
    return labels.label(labels.AUDIT_REASON_LABELS, code)


@register.filter
def actor_label(actor: str) -> str:
    return labels.actor_label(actor)


@register.filter
def type_label(code: str) -> str:
    return labels.label(labels.TYPE_LABELS, code)


@register.filter
def level_label(code: str) -> str:
    return labels.label(labels.LEVEL_LABELS, code)


@register.filter
def source_label(code: str) -> str:
    return labels.label(labels.SOURCE_LABELS, code)


@register.filter
def detail_items(details: dict[str, Any] | None) -> list[tuple[str, str, bool]]:
    """An audit event's details as (key label, value, value is a code) — readable key/value pairs.

    Values are ids, codes and counts only (audit/services.py enforces it); lists are joined."""
    items = []
    for key in sorted(details or {}):
        value = details[key]  # type: ignore[index]
        if isinstance(value, list | tuple):
            shown = ", ".join(str(v) for v in value)
        elif isinstance(value, dict):
            shown = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
        elif isinstance(value, str):
            shown = labels.code_label(value)
        else:
            shown = str(value)
        items.append((labels.label(labels.DETAIL_KEY_LABELS, key), shown, not isinstance(value, int | float)))
    return items
