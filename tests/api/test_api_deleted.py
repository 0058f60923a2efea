"""Deleted means gone for agents at once: the record, its edits and the context all answer as if it never
existed, for the whole purge grace; only its owner still sees it (and may restore it in the browser)."""

from __future__ import annotations

import pytest

from memories.models import Memory


@pytest.fixture
def deleted(world, make_memory) -> Memory:
    memory = make_memory(world.demo, "Prefers tables in every answer", user_id="alice")
    assert world.agent_client(world.demo_key).delete(f"/api/v1/memories/{memory.id}").status_code == 204
    return memory


def test_an_agent_cannot_read_a_deleted_memory(world, deleted):
    agent = world.agent_client(world.demo_key)
    response = agent.get(f"/api/v1/memories/{deleted.id}")
    assert response.status_code == 404
    assert "Prefers tables" not in response.content.decode()


@pytest.mark.parametrize("action", ["pause", "resume", "rollback"])
def test_an_agent_cannot_change_a_deleted_memory(world, deleted, action):
    agent = world.agent_client(world.demo_key)
    assert agent.post(f"/api/v1/memories/{deleted.id}/{action}", {"version": 1}, format="json").status_code == 404
    assert agent.patch(f"/api/v1/memories/{deleted.id}", {"content": "x"}, format="json").status_code == 404
    assert agent.delete(f"/api/v1/memories/{deleted.id}").status_code == 404


def test_a_deleted_memory_is_in_no_list_or_context(world, deleted):
    agent = world.agent_client(world.demo_key)
    assert agent.get("/api/v1/memories", {"user_id": "alice"}).json()["results"] == []
    context = agent.post(
        "/api/v1/memories/context", {"scope": {"level": "user", "user_id": "alice"}, "query": "tables"}, format="json"
    ).json()
    assert context["items"] == [] and "Prefers tables" not in context["rendered"]


def test_the_owner_still_sees_it_and_no_one_else_does(world, deleted):
    mine = world.user_client(world.alice).get(f"/api/v1/memories/{deleted.id}")
    assert mine.status_code == 200 and mine.json()["status"] == "deleted"
    assert world.user_client(world.bob).get(f"/api/v1/memories/{deleted.id}").status_code == 404
    assert world.user_client(world.erin).get(f"/api/v1/memories/{deleted.id}").status_code == 404
    assert world.agent_client(world.acme_key).get(f"/api/v1/memories/{deleted.id}").status_code == 404
