"""Template helpers for the console: whether to show the "Console" link, and compact JSON."""

from __future__ import annotations

import json
from typing import Any

from django import template

from console.access import ConsoleAccess, console_access_for

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
