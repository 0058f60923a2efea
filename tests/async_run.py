"""``run(fn, *args)``: an async function to completion from a test, on a thread of its own.

A test can't start an event loop in a thread that already runs one, and the browser tests leave
Playwright's running in the main thread for the rest of the session.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio

T = TypeVar("T")


def run(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = anyio.run(fn, *args)
        except BaseException as exc:  # re-raised in the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def in_thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A synchronous call that may start an event loop of its own (a management command), on a thread."""

    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
