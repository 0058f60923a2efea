"""Fixtures for the session tests: a session of a subject (helpers are in session_helpers.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from conversations.models import Session
from conversations.services.sessions import session_create


@pytest.fixture
def make_session(world: Any) -> Callable[..., Session]:
    def make(user_id: str = "alice", *, tenant: Any = None, app: str = "chat", **kwargs: Any) -> Session:
        tenant = tenant or world.demo
        return session_create(tenant_id=tenant.pk, user_id=user_id, app=app, actor="test", **kwargs)

    return make
