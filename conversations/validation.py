"""Input rules the services enforce whoever calls them (the API's serializers check the same shapes first)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from conversations.services.errors import SessionInputError
from conversations.vocabulary import TASK_PREFIX

# Identifiers that may appear in the audit log: apps, task ids, tool call ids.
IDENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@/+=#-]{0,127}$", re.ASCII)
IDENT_HELP = "1-128 letters, digits or _.:@/+=#- , starting with a letter or digit"


def max_event_chars() -> int:
    return int(settings.MEMGOV_SESSION_MAX_EVENT_CHARS)


def check_ident(field: str, value: str, *, required: bool = False) -> str:
    if not value and not required:
        return ""
    if not isinstance(value, str) or not IDENT.match(value):
        raise SessionInputError(field, f"use {IDENT_HELP}")
    return value


def check_text(field: str, value: str | None, *, limit: int | None = None) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise SessionInputError(field, "must be text")
    limit = limit or max_event_chars()
    if len(value) > limit:
        raise SessionInputError(field, f"at most {limit} characters")
    if "\x00" in value:
        raise SessionInputError(field, "must not contain NUL characters")
    return value


def check_delta(field: str, value: Any, *, allow_task_keys: bool = False) -> dict[str, Any] | None:
    """A state delta: a JSON object with text keys, no bigger than an event's content may be."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise SessionInputError(field, "must be a JSON object of changes")
    for key in value:
        if not isinstance(key, str) or not key or len(key) > 256:
            raise SessionInputError(field, "keys must be text of 1-256 characters")
        if key.startswith(TASK_PREFIX) and not allow_task_keys:
            raise SessionInputError(field, f"keys starting with {TASK_PREFIX!r} are task state: use the task API")
    try:
        size = len(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        raise SessionInputError(field, "must hold JSON values only") from None
    if size > max_event_chars():
        raise SessionInputError(field, f"at most {max_event_chars()} characters of JSON")
    return dict(value)
