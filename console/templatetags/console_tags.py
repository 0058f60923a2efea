"""Template helpers for the console: whether to show the "Console" link, compact JSON, and the translated
label of every code a page shows (from governance.labels)."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.translation import gettext as _

from console.access import ConsoleAccess, console_access_for
from console.forms_policy import ALERT_LABELS, LIFETIMES, TOP_LEVEL, extractor_choices, lifetime_words
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
def code_label(code: str) -> str:
    return labels.code_label(code)


@register.filter
def detail_items(details: dict[str, Any] | None) -> list[tuple[str, bool, str, bool]]:
    """An audit event's details as readable key/value pairs: (key, key is a code, value, value is a code).

    Values are ids, codes and counts only (audit/services.py enforces it). Keys and codes the labels know
    read as words; anything else (an id, an unfamiliar code) is shown as code, never passed off as a word."""
    items = []
    for key in sorted(details or {}):
        value = details[key]  # type: ignore[index]
        key_text = labels.code_label(key, table=labels.DETAIL_KEY_LABELS)
        if isinstance(value, bool):
            shown, is_code = str(_("Yes") if value else _("No")), False
        elif isinstance(value, int | float):
            shown, is_code = str(value), False
        elif isinstance(value, list | tuple):
            words = [labels.code_label(str(v)) for v in value]
            shown, is_code = ", ".join(words), any(w == str(v) for w, v in zip(words, value, strict=True))
        elif isinstance(value, dict):
            shown, is_code = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": ")), True
        else:
            shown = labels.code_label(str(value))
            is_code = shown == str(value)
        items.append((key_text, key_text == key, shown, is_code))
    return items


@register.filter
def policy_key_label(key: str) -> str:
    """A policy document key as the form names it: ``ttl_by_type.task_state`` → "Task progress"."""
    kind, _dot, name = key.partition(".")
    if kind == "ttl_by_type":
        return str(_("Lifetime: %(type)s") % {"type": labels.label(labels.TYPE_LABELS, name)})
    if kind == "alerts" and name in ALERT_LABELS:
        return str(ALERT_LABELS[name])
    if key in TOP_LEVEL:
        return str(TOP_LEVEL[key][0])
    if key == "extractor":
        return str(_("Memories learned from conversations by"))
    return key


@register.simple_tag
def policy_value(key: str, value: Any) -> str:
    """A lifetime in hours or days; anything else as it is ("—" for none)."""
    if key.startswith("ttl_by_type.") or key in LIFETIMES:
        return lifetime_words(value)
    if key == "extractor":
        return str(dict(extractor_choices()).get(value if value is not None else "default", value))
    return "—" if value is None else str(value)
