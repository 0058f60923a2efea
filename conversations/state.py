"""State deltas, pure: how a delta splits over the three scopes and how it is applied.

A delta is a JSON object applied at its top level: each key's value replaces the one before, and a
``null`` value removes the key (JSON merge patch, one level deep). Keys keep their prefix everywhere.
"""

from __future__ import annotations

import json
from typing import Any

from conversations.vocabulary import APP_PREFIX, USER_PREFIX

State = dict[str, Any]


def dumps(value: object) -> str:
    """Canonical JSON text: the same state always seals the same plaintext length."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def loads(text: str | None) -> Any:
    return json.loads(text) if text else None


def split_delta(delta: State) -> tuple[State, State, State]:
    """(app part, user part, session part) of a delta."""
    app: State = {}
    user: State = {}
    session: State = {}
    for key, value in delta.items():
        if key.startswith(APP_PREFIX):
            app[key] = value
        elif key.startswith(USER_PREFIX):
            user[key] = value
        else:
            session[key] = value
    return app, user, session


def apply_delta(state: State, delta: State) -> State:
    """``state`` changed by ``delta`` (in place, and returned)."""
    for key, value in delta.items():
        if value is None:
            state.pop(key, None)
        else:
            state[key] = value
    return state


def merged_view(*, app: State, user: State, session: State) -> State:
    """What reading a session returns: app state, then user state, then the session's own."""
    return {**app, **user, **session}
