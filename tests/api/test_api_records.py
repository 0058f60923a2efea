"""The agent API for memory records: tenant isolation, owner checks, versions, clear 4xx errors."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from memories.models import Memory


@pytest.fixture
def alice_pref(world, make_memory) -> Memory:
    return make_memory(world.demo, "Prefers tables", user_id="alice")


def test_it_lists_a_subjects_active_memories(world, alice_pref):
    response = world.agent_client(world.demo_key).get("/api/v1/memories", {"user_id": "alice"})
    assert response.status_code == 200
    assert [item["content"] for item in response.json()["results"]] == ["Prefers tables"]


def test_it_requires_user_id_for_the_list(world):
    response = world.agent_client(world.demo_key).get("/api/v1/memories")
    assert response.status_code == 400
    assert "user_id" in response.json()["fields"]


@pytest.mark.parametrize("params", [{"limit": 2**63}, {"limit": 10**20}, {"limit": 501}, {"limit": 0}, {"offset": -1}])
def test_a_page_outside_the_bounds_is_a_clear_400(world, alice_pref, params):
    # Found by hand beside the fuzz test: a limit of 2**63 or more reached the database, a 500.
    response = world.agent_client(world.demo_key).get("/api/v1/memories", {"user_id": "alice", **params})
    assert response.status_code == 400
    assert list(response.json()["fields"]) == list(params)


def test_the_largest_page_lists_only_the_callers_tenant(world, alice_pref, make_memory):
    make_memory(world.acme, "Prefers emoji", user_id="alice")
    for key, contents in ((world.demo_key, ["Prefers tables"]), (world.acme_key, ["Prefers emoji"])):
        response = world.agent_client(key).get("/api/v1/memories", {"user_id": "alice", "limit": 500, "offset": 0})
        assert response.status_code == 200
        assert [item["content"] for item in response.json()["results"]] == contents


def test_an_agent_of_another_tenant_cannot_list_read_edit_or_delete(world, alice_pref):
    acme = world.agent_client(world.acme_key)
    assert acme.get("/api/v1/memories", {"user_id": "alice"}).json()["results"] == []
    url = f"/api/v1/memories/{alice_pref.id}"
    assert acme.get(url).status_code == 404
    assert acme.patch(url, {"content": "hijacked"}, format="json").status_code == 404
    assert acme.delete(url).status_code == 404
    assert acme.post(f"{url}/pause").status_code == 404
    alice_pref.refresh_from_db()
    assert alice_pref.status == "active" and alice_pref.content == "Prefers tables"


def test_missing_and_foreign_memories_answer_the_same(world, alice_pref):
    acme = world.agent_client(world.acme_key)
    foreign = acme.get(f"/api/v1/memories/{alice_pref.id}")
    missing = acme.get("/api/v1/memories/0190a0a0-0000-7000-8000-000000000000")
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json() == missing.json()


def test_a_teammate_cannot_see_or_touch_another_members_memory(world, alice_pref):
    bob = world.user_client(world.bob)
    assert bob.get(f"/api/v1/memories/{alice_pref.id}").status_code == 404
    assert bob.get("/api/v1/memories", {"user_id": "alice"}).status_code == 404
    assert bob.delete(f"/api/v1/memories/{alice_pref.id}").status_code == 404
    alice = world.user_client(world.alice)
    assert alice.get(f"/api/v1/memories/{alice_pref.id}").json()["content"] == "Prefers tables"


def test_patch_makes_a_new_version_and_rollback_restores(world, alice_pref):
    agent = world.agent_client(world.demo_key)
    url = f"/api/v1/memories/{alice_pref.id}"
    response = agent.patch(url, {"content": "Prefers bullet lists"}, format="json")
    assert response.status_code == 200
    assert response.json()["version"] == 2
    response = agent.post(f"{url}/rollback", {"version": 1}, format="json")
    assert response.json()["content"] == "Prefers tables"
    assert response.json()["version"] == 3
    assert alice_pref.versions.count() == 3


def test_rollback_to_a_missing_version_is_a_clear_400(world, alice_pref):
    response = world.agent_client(world.demo_key).post(
        f"/api/v1/memories/{alice_pref.id}/rollback", {"version": 9}, format="json"
    )
    assert response.status_code == 400
    assert "version" in response.json()["fields"]


UNREADABLE = [
    ("[" * 100_000 + "]" * 100_000, "application/json"),
    (b"content=Prefers+lists", "application/x-www-form-urlencoded; charset=punycode"),
]


@pytest.mark.parametrize(("body", "content_type"), UNREADABLE)
def test_an_unreadable_body_is_a_400_and_never_reaches_another_tenants_memory(world, alice_pref, body, content_type):
    url = f"/api/v1/memories/{alice_pref.id}"
    for method, path in (("PATCH", url), ("POST", f"{url}/rollback")):
        own = world.agent_client(world.demo_key).generic(method, path, body, content_type=content_type)
        assert own.status_code == 400 and own.json()["error"] == "malformed_json"
        foreign = world.agent_client(world.acme_key).generic(method, path, body, content_type=content_type)
        assert foreign.status_code == 404
    alice_pref.refresh_from_db()
    assert alice_pref.content == "Prefers tables" and alice_pref.version == 1


def test_patch_without_changes_is_a_clear_400(world, alice_pref):
    response = world.agent_client(world.demo_key).patch(f"/api/v1/memories/{alice_pref.id}", {}, format="json")
    assert response.status_code == 400


def test_malformed_json_is_a_clear_400(world, alice_pref):
    response = world.agent_client(world.demo_key).generic(
        "PATCH", f"/api/v1/memories/{alice_pref.id}", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == "malformed_json"


def test_pause_resume_and_delete_are_audited_without_content(world, alice_pref):
    agent = world.agent_client(world.demo_key)
    url = f"/api/v1/memories/{alice_pref.id}"
    assert agent.post(f"{url}/pause").json()["status"] == "paused"
    assert agent.post(f"{url}/resume").json()["status"] == "active"
    assert agent.delete(url).status_code == 204
    assert agent.post(f"{url}/resume").status_code == 404  # deleted: gone for agents (test_api_deleted.py)
    events = list(AuditEvent.objects.filter(memory_id=alice_pref.id).values_list("event", flat=True))
    assert events[-3:] == ["memory_paused", "memory_resumed", "memory_deleted"]
    for row in AuditEvent.objects.filter(memory_id=alice_pref.id).values():
        assert "Prefers tables" not in str(row)


def test_a_revoked_or_unknown_key_is_refused(world):
    from governance.services.tenancy import agent_key_revoke

    agent_key_revoke(client=world.demo_agent, actor="test")
    assert world.agent_client(world.demo_key).get("/api/v1/memories", {"user_id": "a"}).status_code == 401
    assert world.agent_client("mg_nope_nope").get("/api/v1/memories", {"user_id": "a"}).status_code == 401
    assert world.agent_client("").get("/api/v1/memories", {"user_id": "a"}).status_code == 401


def test_an_agent_cannot_change_an_approved_shared_rule(world, make_memory):
    rule = make_memory(
        world.demo, "Pull requests need two reviewers.", level="team", team="ai-platform", type="organization_rule"
    )
    agent = world.agent_client(world.demo_key)
    url = f"/api/v1/memories/{rule.id}"
    assert agent.get(url).status_code == 200
    assert agent.patch(url, {"content": "Pull requests need no review."}, format="json").status_code == 404
    assert agent.post(f"{url}/pause").status_code == 404
    assert agent.post(f"{url}/rollback", {"version": 1}, format="json").status_code == 404
    assert agent.delete(url).status_code == 404
    rule.refresh_from_db()
    assert rule.status == "active" and rule.content == "Pull requests need two reviewers." and rule.version == 1
