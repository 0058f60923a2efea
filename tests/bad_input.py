"""Shared by the bad-input sweeps of the pages: a refused POST says what to fix and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.test import Client


def logged_in(user: Any) -> Client:
    """A test client with ``user`` (an account, or a Membership's account) logged in."""
    client = Client()
    client.force_login(getattr(user, "user", user))
    return client


def page_text(response: Any) -> str:
    return response.content.decode()


def shown(data: object) -> str:
    """A case as a failure message names it (the 100k-character values shortened)."""
    text = repr(data)
    return text if len(text) < 120 else text[:100] + f"…({len(text)} chars)"


def refused(
    client: Client, path: str, data: dict[str, Any], message: str, *, state: Callable[[], object], status: int = 400
) -> str:
    """POST ``data``: the status, the message on the page, and ``state()`` (the rows the pages can change)
    the same after as before. Returns the page."""
    before = state()
    response = client.post(path, data)
    assert response.status_code == status, (path, shown(data))
    assert message in page_text(response), (path, shown(data), message)
    assert state() == before, (path, shown(data))
    return page_text(response)
