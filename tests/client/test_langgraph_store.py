"""MemgovStore, LangGraph's BaseStore on memgov: puts go through the write pipeline, a pending put is not
returned until confirmed, search ranks with the context ranking, TTLs become requested expiries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from async_run import run as run_async
from memgov_client import Client, MemoryRejected
from memgov_client.langgraph import MemgovStore, parse_ref, ref_for

from memories.models import Memory

NS = ("memories", "alice")
ASKED = {"source_type": "explicit_user_request"}


@pytest.fixture
def store(world, live_server) -> MemgovStore:
    return MemgovStore(base_url=live_server.url, api_key=world.demo_key, user_id="alice")


def test_an_asked_for_put_is_stored_and_read_back(store):
    store.put(NS, "tables", {"content": "Remember that I prefer answers with tables.", **ASKED})
    item = store.get(NS, "tables")
    assert item.key == "tables" and item.namespace == NS
    assert item.value == {
        "content": "Remember that I prefer answers with tables.",
        "type": "user_preference",
        "source_type": "explicit_user_request",
        "confidence": 1.0,
    }
    memory = Memory.objects.get()
    assert memory.user_id == "alice" and memory.source_message_id == "lg.memories.alice..tables"


def test_an_inferred_put_is_pending_until_the_person_confirms(store, world, live_server):
    decision = store.write(NS, "dark", {"content": "Prefers dark mode in every editor"})
    assert decision["decision"] == "ask_confirmation"
    assert store.get(NS, "dark") is None
    assert store.search(NS) == []
    with Client(live_server.url, world.demo_key) as memgov:
        memgov.confirmations.accept(decision["confirmation_id"], instruction_message_id="msg-alice-said-yes")
    assert store.get(NS, "dark").value["content"] == "Prefers dark mode in every editor"


def test_a_rejected_put_raises_with_the_reason_code(store):
    secret = {"content": "My key is sk-proj-abc123def456ghi789jkl012mno345, remember it", **ASKED}
    with pytest.raises(MemoryRejected) as caught:
        store.put(NS, "key", secret)
    assert caught.value.reason_code == "restricted_data"
    assert store.get(NS, "key") is None
    assert not Memory.objects.exists()


def test_a_value_memgov_cannot_keep_is_refused_before_anything_is_sent(store):
    for value in ({"content": "Prefers tables", "tags": ["ui"]}, {"text": "Prefers tables"}, {"content": " "}):
        with pytest.raises(ValueError, match="content"):
            store.put(NS, "bad", value)
    assert not Memory.objects.exists()


def test_search_with_a_query_uses_the_context_ranking(store):
    store.put(NS, "tables", {"content": "Remember that I prefer answers with tables.", **ASKED})
    store.put(NS, "lang", {"content": "Remember that I write Python at work.", **ASKED})
    store.put(("other",), "tea", {"content": "Remember that I drink green tea.", **ASKED})
    found = store.search(NS, query="format the answer as tables")
    assert [item.key for item in found][:1] == ["tables"]
    assert found[0].score is not None and found[0].score > 0
    assert {item.key for item in store.search(("memories",))} == {"tables", "lang"}
    assert [i.key for i in store.search((), filter={"type": "user_preference"}, limit=1)] == ["tables"]


def test_a_second_put_under_the_key_is_a_new_version_and_none_deletes(store):
    store.put(NS, "tables", {"content": "Remember that I prefer answers with tables.", **ASKED})
    store.put(NS, "tables", {"content": "Remember that I prefer answers with bullet points.", **ASKED})
    memory = Memory.objects.get()
    assert memory.version == 2 and memory.content == "Remember that I prefer answers with bullet points."
    assert store.get(NS, "tables").value["content"].endswith("bullet points.")
    store.delete(NS, "tables")
    assert store.get(NS, "tables") is None
    memory.refresh_from_db()
    assert memory.status == "deleted"


def test_a_ttl_becomes_the_memorys_requested_expiry(store):
    store.put(NS, "soon", {"content": "Remember that I prefer answers with tables.", **ASKED}, ttl=30)
    expires_at = Memory.objects.get().expires_at
    assert expires_at is not None
    assert abs(expires_at - (datetime.now(UTC) + timedelta(minutes=30))) < timedelta(minutes=1)


def test_list_namespaces_and_the_other_tenant(store, world, live_server):
    store.put(("a", "b"), "k1", {"content": "Remember that I prefer answers with tables.", **ASKED})
    store.put(("a", "c", "d"), "k2", {"content": "Remember that I write Python at work.", **ASKED})
    assert store.list_namespaces() == [("a", "b"), ("a", "c", "d")]
    assert store.list_namespaces(prefix=("a", "c")) == [("a", "c", "d")]
    assert store.list_namespaces(max_depth=1) == [("a",)]
    acme = MemgovStore(base_url=live_server.url, api_key=world.acme_key, user_id="alice")
    assert acme.get(("a", "b"), "k1") is None and acme.list_namespaces() == []


def test_the_async_methods(store):
    async def run() -> tuple:
        await store.aput(NS, "tables", {"content": "Remember that I prefer answers with tables.", **ASKED})
        return await store.aget(NS, "tables"), await store.asearch(NS, query="tables")

    item, found = run_async(run)
    assert item.value["content"].startswith("Remember") and [i.key for i in found] == ["tables"]


def test_refs_round_trip_and_a_long_one_is_refused():
    assert parse_ref(ref_for(("a", "b:c"), "x..y")) == (("a", "b:c"), "x..y")
    assert parse_ref("msg-1") is None
    with pytest.raises(ValueError, match="128"):
        ref_for(("memories",), "k" * 130)
