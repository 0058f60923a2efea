"""MemgovSession's reads (clients/python/src/memgov_client/openai_agents.py), beyond the Agents SDK's own session
tests: an instance that has read its session fetches only the events appended since, keeps what it read right
through its own adds, pops and clears, and reads the branch again when another instance popped or cleared what
it had read. Every read is checked against a new instance's full read of the same session."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from async_run import run
from branch_spy import spy_branch_reads
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
        """What a new instance reads: the whole branch, nothing kept from before. The instance is closed at
        once: each open one holds a connection to the live server, and so a database connection there."""
        fresh = MemgovSession(self.name, base_url=self.url, api_key=self.key, user_id=self.user_id)
        try:
            return _get(fresh, limit)
        finally:
            fresh.close()


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


def _pop(session: MemgovSession) -> Any:
    return run(session.pop_item)


def _spy(session: MemgovSession) -> list[tuple[dict[str, Any], int | str]]:
    """(arguments, events answered or the error's field) of every branch read the instance makes."""
    return spy_branch_reads(session._client)


def _reads(calls: list[tuple[dict[str, Any], int | str]]) -> list[tuple[bool, int | str]]:
    """Each branch read as (asked ``after`` the last event read, what it answered)."""
    return [(kwargs.get("after") is not None, answered) for kwargs, answered in calls]


def _contents(items: list[Any]) -> list[str]:
    return [item["content"] for item in items]


def test_a_read_fetches_only_what_was_appended_since(named):
    mine, theirs = named.session(), named.session()
    _add(mine, "a", "b", "c")
    calls = _spy(mine)
    assert _contents(_get(mine)) == ["a", "b", "c"]
    assert _reads(calls) == [(True, 0)]  # its own add_items joined what it had read: nothing new
    _add(theirs, "d", "e")
    calls.clear()
    assert _contents(_get(mine)) == ["a", "b", "c", "d", "e"] == _contents(named.full())
    assert _reads(calls) == [(True, 2)]


def test_the_items_read_are_the_callers_own(named):
    mine = named.session()
    _add(mine, "a")
    _get(mine)[0]["content"] = "changed by the caller"
    assert _contents(_get(mine)) == ["a"]


def test_a_pop_leaves_what_was_read_right_without_reading_it_again(named):
    mine = named.session()
    _add(mine, "a", "b", "c")
    _get(mine)
    assert _pop(mine)["content"] == "c"
    calls = _spy(mine)
    assert _contents(_get(mine)) == ["a", "b"] == _contents(named.full())
    assert _reads(calls) == [(True, 0)]
    _add(mine, "d")  # after the pop, a sibling of the popped event
    assert _contents(_get(mine)) == ["a", "b", "d"] == _contents(named.full())


def test_an_add_after_another_instance_added_leaves_theirs_to_the_next_read(named):
    mine, theirs = named.session(), named.session()
    _add(mine, "a")
    _get(mine)
    _add(theirs, "b")
    _add(mine, "c")  # not right after what it read: "b" came between
    calls = _spy(mine)
    assert _contents(_get(mine)) == ["a", "b", "c"] == _contents(named.full())
    assert _reads(calls) == [(True, 2)]


def test_a_read_reads_the_branch_again_when_another_instance_popped_what_it_read(named):
    mine, theirs = named.session(), named.session()
    _add(mine, "a", "b", "c")
    _get(mine)
    assert _pop(theirs)["content"] == "c"
    calls = _spy(mine)
    assert _contents(_get(mine)) == ["a", "b"] == _contents(named.full())
    assert _reads(calls) == [(True, "400 after"), (False, 2)]
    _pop(theirs)
    _add(theirs, "x")  # the leaf left what was read and grew elsewhere: refused again
    assert _contents(_get(mine)) == ["a", "x"] == _contents(named.full())


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


def test_a_read_with_a_limit_reads_back_only_as_far_as_it_needs(named):
    writer, reader = named.session(), named.session()
    _add(writer, *"abcdefgh")
    calls = _spy(reader)
    assert _contents(_get(reader, 3)) == ["f", "g", "h"]
    assert calls == [({"leaf": None, "limit": 3}, 3)]
    calls.clear()
    assert _contents(_get(reader, 5)) == ["d", "e", "f", "g", "h"] == _contents(named.full(5))
    assert _reads(calls) == [(True, 0), (False, 2)]  # nothing new, then the two events above what it read
    assert _contents(_get(reader)) == list("abcdefgh")


def test_pops_past_all_it_had_read_leave_it_reading_from_above(named):
    writer, reader = named.session(), named.session()
    _add(writer, *"abcde")
    assert _contents(_get(reader, 1)) == ["e"]  # read: e; the branch goes on above it, at d
    assert _pop(reader)["content"] == "e"  # nothing read is left
    assert _pop(reader)["content"] == "d"  # the event the branch went on at
    assert _contents(_get(reader, 2)) == ["b", "c"] == _contents(named.full(2))
    assert _contents(_get(reader)) == ["a", "b", "c"] == _contents(named.full())


def test_events_that_are_no_items_are_passed_over(named):
    mine, theirs = named.session(), named.session()
    _add(mine, "a")
    _get(mine)
    theirs._client.sessions.append(
        theirs.memgov_session_id,
        [
            {"kind": "label", "content": "not an item"},
            {"kind": "user_message", "content": "plain text from another client"},
            {"kind": "label", "content": None, "state_delta": {"topic": "orders"}},
        ],
    )
    _add(theirs, "b")
    expected = [
        {"role": "user", "content": "a"},
        {"role": "user", "content": "plain text from another client"},
        {"role": "user", "content": "b"},
    ]
    assert _get(mine) == expected == named.full()
    assert _get(mine, 2) == expected[1:] == named.full(2)
    assert _pop(theirs)["content"] == "b"
    assert _pop(theirs)["content"] == "plain text from another client"  # the state change after it went first
    assert _get(mine) == expected[:1] == named.full()


def test_adds_pops_and_clears_of_two_instances_always_read_as_a_new_instance_reads(named):
    pair = (named.session(), named.session())
    chance = random.Random(20)  # the same steps on every run
    for step in range(80):
        actor = pair[chance.randrange(2)]
        roll = chance.random()
        if roll < 0.45:
            _add(actor, *(f"{step}.{n}" for n in range(chance.randint(1, 3))))
        elif roll < 0.8:
            _pop(actor)
        elif roll < 0.85:
            run(actor.clear_session)
        else:
            _get(actor, chance.randint(1, 4))  # a limited read: what it keeps is the branch's end only
        for session in pair:
            if chance.random() < 0.5:  # unread, it acts next on what it read steps ago
                limit = chance.choice([None, 1, 2, 5])
                assert _get(session, limit) == named.full(limit), f"step {step}"
    for session in pair:
        assert _get(session) == named.full()


def test_reads_and_writes_at_once_on_one_instance_stay_right(named):
    mine = named.session()
    _add(mine, "a")

    async def at_once() -> None:
        await asyncio.gather(
            mine.add_items([{"role": "user", "content": "b"}]),
            mine.get_items(),
            mine.add_items([{"role": "user", "content": "c"}]),
            mine.get_items(2),
            mine.pop_item(),
            mine.get_items(),
        )

    run(at_once)
    assert _get(mine) == named.full()
    assert _get(mine, 1) == named.full(1)
