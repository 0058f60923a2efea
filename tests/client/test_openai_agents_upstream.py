"""The OpenAI Agents SDK's own session tests (tests/memory/test_session.py and test_session_limit.py of its
source distribution, which ``make install`` fetches into var/upstream/) run against MemgovSession in place of
SQLiteSession, each against the live server.

Every test of those files runs here except the ones in SKIPPED, each with its reason: they test SQLiteSession's
own SQLite file (connections per thread, file locks, corrupt rows written with sqlite3, rollbacks of its
transactions), not the Session protocol. A test that the SDK adds in a new version runs by default.
The SDK's other files under tests/memory/ test other sessions (OpenAI's hosted Conversations, the Responses
compaction wrapper, SQLAlchemy) and are not run.
"""

from __future__ import annotations

import functools
import importlib.metadata
import inspect
import os
import sys
import types
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from async_run import run as run_async
from django.conf import settings
from memgov_client.openai_agents import MemgovSession

VERSION = importlib.metadata.version("openai-agents")
UPSTREAM = Path(settings.BASE_DIR) / "var" / "upstream" / f"openai_agents-{VERSION}"
FILES = ("test_session.py", "test_session_limit.py")

SQLITE_FILE = "SQLiteSession's SQLite file and connections, not the Session protocol"
SKIPPED: dict[str, str] = {
    "test_await_mutation_cancellation_hides_later_failure_without_loop_error": "the SDK's own helper, no session",
    "test_sqlite_session_close_closes_worker_thread_connections": SQLITE_FILE,
    "test_sqlite_session_reaps_connections_from_exited_worker_threads": SQLITE_FILE,
    "test_sqlite_session_closes_retired_connections_before_the_next_allocation": SQLITE_FILE,
    "test_sqlite_session_keeps_connections_of_live_worker_threads": SQLITE_FILE,
    "test_sqlite_session_closed_rejects_empty_add_items": SQLITE_FILE + " (a closed SQLiteSession refuses calls)",
    "test_sqlite_session_pop_item_skips_corrupt_most_recent": SQLITE_FILE + " (rows corrupted with sqlite3)",
    "test_sqlite_session_pop_item_returns_none_after_dropping_only_corrupt_rows": SQLITE_FILE,
    "test_sqlite_session_get_items_limit_skips_corrupt_newest_rows": SQLITE_FILE,
    "test_sqlite_session_get_items_session_settings_limit_skips_corrupt_rows": SQLITE_FILE,
    "test_sqlite_session_file_lock_is_shared_across_instances": SQLITE_FILE + " (its file locks)",
    "test_sqlite_session_failed_add_items_releases_write_lock": SQLITE_FILE + " (its write lock)",
    "test_sqlite_session_failed_clear_session_rolls_back": SQLITE_FILE + " (its transactions)",
    "test_sqlite_session_failed_pop_item_releases_write_lock": SQLITE_FILE,
    "test_sqlite_session_rollback_failure_evicts_connection": SQLITE_FILE,
    "test_sqlite_session_close_retries_quarantined_connection": SQLITE_FILE,
    "test_sqlite_session_post_commit_cancellation_propagates_after_known_outcome": SQLITE_FILE,
}


def _load() -> dict[str, types.ModuleType]:
    tests_dir = UPSTREAM / "tests"
    if not (tests_dir / "memory" / FILES[0]).exists():
        message = f"The Agents SDK's session tests are not in {tests_dir}: run `make install`"
        if os.environ.get("CI"):
            raise RuntimeError(message)
        return {}
    # The upstream files import their helpers as ``tests.…``: for their import, that name is a package over
    # their directory (this repository's tests/ is no package; it is given back its name afterwards).
    saved = {name: sys.modules.get(name) for name in ("tests", "tests.memory")}
    loaded = {}
    try:
        for name, path in (("tests", tests_dir), ("tests.memory", tests_dir / "memory")):
            package = types.ModuleType(name)
            package.__path__ = [str(path)]  # type: ignore[attr-defined]
            sys.modules[name] = package
        for name in FILES:
            loaded[name] = importlib.import_module(f"tests.memory.{name.removesuffix('.py')}")
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return loaded


class _Server:
    url = ""
    key = ""


def memgov_session(session_id: str, db_path: object = None, *, session_settings: Any = None) -> MemgovSession:
    """SQLiteSession's constructor, answered with a MemgovSession: one SQLite file is one memgov subject
    (two sessions in one file share nothing but the file; two files share nothing at all)."""
    subject = f"oai-{zlib.crc32(str(db_path).encode()):08x}"
    return MemgovSession(
        session_id, base_url=_Server.url, api_key=_Server.key, user_id=subject, session_settings=session_settings
    )


def _as_test(function: Callable[..., Any]) -> Callable[..., Any]:
    """The upstream test, run synchronously (async ones on a loop of their own), keeping its parametrize
    marks and dropping pytest-asyncio's, which this suite doesn't use."""

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        def test(*args: Any, **kwargs: Any) -> Any:
            return run_async(lambda: function(*args, **kwargs))
    else:

        @functools.wraps(function)
        def test(*args: Any, **kwargs: Any) -> Any:
            return function(*args, **kwargs)

    marks = [m for m in getattr(function, "pytestmark", []) if m.name == "parametrize"]
    test.pytestmark = marks  # type: ignore[attr-defined]
    return test


MODULES = _load()


@pytest.fixture(autouse=True)
def _memgov_in_place_of_sqlite(world, live_server, monkeypatch) -> None:
    _Server.url, _Server.key = live_server.url, world.demo_key
    for module in MODULES.values():
        monkeypatch.setattr(module, "SQLiteSession", memgov_session)


for _file, _module in MODULES.items():
    for _name, _function in vars(_module).items():
        if _name.startswith("test_") and callable(_function) and _name not in SKIPPED:
            globals()[_name] = _as_test(_function)


def test_the_upstream_tests_ran_here():
    if not MODULES:
        pytest.skip(f"The Agents SDK's session tests are not in {UPSTREAM}: run `make install`")
    names = {n for m in MODULES.values() for n in vars(m) if n.startswith("test_")}
    assert set(SKIPPED) <= names  # every skip names a test that exists
    assert len(names - set(SKIPPED)) == 28  # openai-agents 0.24.0: a new version says what it added here
