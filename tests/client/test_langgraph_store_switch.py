"""MemgovStore for an agent the person switched off: search (with or without a query) finds nothing of
theirs and a put raises with ``subject_blocked_agent``; switched on again, both work."""

from __future__ import annotations

import pytest
from memgov_client import MemoryRejected
from memgov_client.langgraph import MemgovStore

from memories.services.agent_access import agent_access_set

NS = ("memories", "alice")
ASKED = {"source_type": "explicit_user_request"}


def test_search_and_put_honour_the_persons_switch(world, live_server):
    store = MemgovStore(base_url=live_server.url, api_key=world.demo_key, user_id="alice")
    store.put(NS, "tables", {"content": "Remember that I prefer answers with tables.", **ASKED})
    assert [item.key for item in store.search(NS, query="tables")] == ["tables"]
    agent_access_set(
        tenant_id=world.demo.pk, user_id="alice", agent_id=world.demo_agent.pk, blocked=True, actor="user:alice"
    )
    assert store.search(NS, query="tables") == []
    assert store.search(NS) == []
    with pytest.raises(MemoryRejected) as caught:
        store.put(NS, "charts", {"content": "Remember that I prefer charts.", **ASKED})
    assert caught.value.reason_code == "subject_blocked_agent"
    agent_access_set(
        tenant_id=world.demo.pk, user_id="alice", agent_id=world.demo_agent.pk, blocked=False, actor="user:alice"
    )
    assert [item.key for item in store.search(NS, query="tables")] == ["tables"]
