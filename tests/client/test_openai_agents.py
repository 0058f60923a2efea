"""MemgovSession (clients/python/src/memgov_client/openai_agents.py) beyond the Agents SDK's own session tests:
instances of one session under one name, each read checked against a new instance's full read."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from async_run import run
from memgov_client.openai_agents import MemgovSession


class _Named:
    """Instances of one session (one name, one person), each with a client of its own."""

    def __init__(self, url: str, key: str) -> None:
        self.url, self.key = url, key
        self.name, self.user_id = f"chat-{uuid.uuid4().hex[:8]}", f"oai-{uuid.uuid4().hex[:12]}"
        self.made: list[MemgovSession] = []

    def session(self) -> MemgovSession:
        made = MemgovSession(self.name, base_url=self.url, api_key=self.key, user_id=self.user_id)
        self.made.append(made)
        return made

    def full(self, limit: int | None = None) -> list[Any]:
        """What a new instance reads: the whole branch, nothing kept from before."""
        return _get(self.session(), limit)


@pytest.fixture
def named(world, live_server) -> Iterator[_Named]:
    sessions = _Named(live_server.url, world.demo_key)
    yield sessions
    for made in sessions.made:
        made.close()


def _get(session: MemgovSession, limit: int | None = None) -> list[Any]:
    return run(lambda: session.get_items(limit))


def _add(session: MemgovSession, *texts: str) -> None:
    run(lambda: session.add_items([{"role": "user", "content": text} for text in texts]))


def _contents(items: list[Any]) -> list[str]:
    return [item["content"] for item in items]


def test_a_read_finds_the_new_session_when_another_instance_cleared_it(named):
    mine, theirs = named.session(), named.session()
    _add(mine, "a", "b")
    _get(mine)
    run(theirs.clear_session)
    assert _get(mine) == []
    _add(theirs, "c")  # a new memgov session under the same name
    assert _contents(_get(mine)) == ["c"] == _contents(named.full())
    run(theirs.clear_session)
    _add(theirs, "d")  # cleared and started again between two of my reads
    assert _contents(_get(mine)) == ["d"] == _contents(named.full())
    assert _contents(_get(theirs)) == ["d"]
