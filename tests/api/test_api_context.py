"""POST /api/v1/memories/context: what the demo agent and the demo people may see, and clear 4xx errors."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from governance.vocabulary import Level

URL = "/api/v1/memories/context"


@pytest.fixture
def demo_memories(world, make_memory) -> dict:
    return {
        "alice": make_memory(world.demo, "Prefers short answers", user_id="alice"),
        "alice_zh": make_memory(world.demo, "部署用 kubernetes 和 helm", user_id="alice", type="user_profile"),
        "bob": make_memory(world.demo, "Prefers short answers with tables", user_id="bob"),
        "team": make_memory(
            world.demo,
            "Every deployment needs a rollback plan",
            level=Level.TEAM,
            team="ai-platform",
            type="organization_rule",
            source_type="admin_console",
        ),
        "acme": make_memory(world.acme, "Prefers short answers in acme", user_id="alice"),
    }


def post(client, body: dict, **kwargs):
    return client.post(URL, body, format="json", **kwargs)


def contents(response) -> list[str]:
    return [item["content"] for item in response.json()["items"]]


def test_the_agent_gets_its_subjects_context(world, demo_memories):
    response = post(
        world.agent_client(world.demo_key),
        {"scope": {"user_id": "alice", "team": "ai-platform"}, "query": "How do I deploy with kubernetes?", "top_k": 5},
    )
    assert response.status_code == 200
    body = response.json()
    assert set(contents(response)) == {
        "部署用 kubernetes 和 helm",
        "Every deployment needs a rollback plan",
        "Prefers short answers",
    }
    assert "<user_memory>" in body["rendered"]
    assert "Rules for the memory blocks above:" in body["rendered"]
    item = body["items"][0]
    assert set(item) == {
        "id",
        "citation_id",
        "ref",
        "type",
        "content",
        "scope",
        "block",
        "source",
        "confidence",
        "updated_at",
        "score",
        "score_parts",
        "cosine",
        "why",
        "matched_terms",
        "tokens",
    }
    assert body["token_count"] <= body["token_budget"] == 1200
    # It explains itself: the memories about the query first, with the words that matched; the standing
    # guidance (here the subject's preference) in its own block.
    assert item["content"] == "部署用 kubernetes 和 helm" and item["block"] == "user_memory"
    assert "query_terms" in item["why"] and "translated_terms" in item["why"]
    assert "kubernet" in item["matched_terms"] and "deploy→部署" in item["matched_terms"]
    assert set(item["score_parts"]) == {"relevance", "lexical", "semantic", "recency", "confidence", "trust"}
    assert item["score_parts"]["relevance"] == 1.0
    (rule,) = [i for i in body["items"] if i["content"] == "Every deployment needs a rollback plan"]
    assert rule["why"] == ["query_terms"] and rule["matched_terms"] == ["deploy"] and rule["block"] == "org_rules"
    standing = [i for i in body["items"] if i["why"] == ["standing"]]
    assert [i["content"] for i in standing] == ["Prefers short answers"]
    assert {i["block"] for i in standing} == {"user_guidance"} and "<user_guidance>" in body["rendered"]
    assert body["ranking"] == "hybrid" and body["standing_k"] == 5
    assert body["conflicts"] == [] and body["language"] == "en"


def test_an_agent_of_another_tenant_sees_none_of_this_tenants_memories(world, demo_memories):
    response = post(world.agent_client(world.acme_key), {"scope": {"user_id": "alice"}, "query": "short answers"})
    assert contents(response) == ["Prefers short answers in acme"]
    response = post(world.agent_client(world.acme_key), {"scope": {"user_id": "bob"}, "query": "short answers"})
    assert response.json()["items"] == [] and response.json()["rendered"] == ""


def test_a_teammate_cannot_read_another_members_context(world, demo_memories):
    bob = world.user_client(world.bob)
    refused = post(bob, {"scope": {"user_id": "alice"}, "query": "short answers"})
    assert refused.status_code == 200 and refused.json()["items"] == [] and refused.json()["rendered"] == ""
    assert AuditEvent.objects.filter(tenant=world.demo, event="cross_scope_read", actor="user:bob").count() == 1
    own = post(bob, {"scope": {}, "query": "short answers"})
    assert contents(own) == ["Prefers short answers with tables"]


def test_a_person_sees_their_own_context(world, demo_memories):
    response = post(world.user_client(world.alice), {"scope": {"user_id": "alice"}, "query": "short answers"})
    assert "Prefers short answers" in contents(response)
    assert "Prefers short answers with tables" not in contents(response)


def test_naming_a_team_the_subject_is_not_in_answers_as_if_empty(world, demo_memories, make_memory):
    make_memory(world.demo, "Prefers PDF reports", user_id="dave")
    response = post(
        world.agent_client(world.demo_key),
        {"scope": {"user_id": "dave", "team": "ai-platform"}, "query": "reports"},
    )
    assert response.status_code == 200 and response.json()["items"] == []
    event = AuditEvent.objects.get(tenant=world.demo, event="cross_scope_read")
    assert event.reason_code == "not_team_member" and event.subject_id == "dave"


def test_project_rules_reach_the_projects_members_only(world, demo_memories, make_memory):
    from governance.services.projects import project_create, project_member_add

    rule = "dispatch-docs: push to lab/main and origin/main after committing"
    make_memory(world.demo, rule, level=Level.PROJECT, project="dispatch-docs", type="project_rule")
    make_memory(world.acme, f"acme {rule}", level=Level.PROJECT, project="dispatch-docs", type="project_rule")
    project_member_add(
        project=project_create(tenant=world.demo, slug="dispatch-docs", actor="t"), membership=world.alice, actor="t"
    )
    project_member_add(
        project=project_create(tenant=world.acme, slug="dispatch-docs", actor="t"), membership=world.erin, actor="t"
    )
    body = {"scope": {"user_id": "alice", "project": "dispatch-docs"}, "query": "push after committing"}
    assert rule in contents(post(world.agent_client(world.demo_key), body))
    assert rule in contents(post(world.user_client(world.alice), body))
    bob = {"scope": {"user_id": "bob", "project": "dispatch-docs"}, "query": "push after committing"}
    assert rule not in contents(post(world.agent_client(world.demo_key), bob))  # in the tenant, not the project
    assert rule not in contents(post(world.user_client(world.bob), bob))
    # acme's agent, for acme's member of acme's project of the same name: acme's rule only
    erin = {"scope": {"user_id": "erin", "project": "dispatch-docs"}, "query": "push after committing"}
    assert contents(post(world.agent_client(world.acme_key), erin)) == [f"acme {rule}"]


def test_a_chinese_query_gets_chinese_labels(world, demo_memories):
    response = post(world.agent_client(world.demo_key), {"scope": {"user_id": "alice"}, "query": "部署步骤"})
    body = response.json()
    assert body["language"] == "zh" and "记忆使用规则：" in body["rendered"]
    assert "部署用 kubernetes 和 helm" in contents(response)


def test_a_conflicting_instruction_is_reported(world, demo_memories):
    response = post(
        world.agent_client(world.demo_key),
        {"scope": {"user_id": "alice"}, "query": "deploy", "instruction": "Explain every step in detail"},
    )
    (conflict,) = response.json()["conflicts"]
    assert conflict["memory_id"] == str(demo_memories["alice"].id)
    assert conflict["memory_says"] == "brief" and conflict["instruction_says"] == "detailed"
    assert conflict["resolution"] == "follow_current_instruction"
    assert "Ask the user" in conflict["suggestion"]
    assert conflict["ref"] in response.json()["rendered"]


def test_usage_is_recorded(world, demo_memories):
    post(world.agent_client(world.demo_key), {"scope": {"user_id": "alice"}, "query": "short answers", "top_k": 1})
    demo_memories["alice"].refresh_from_db()
    assert demo_memories["alice"].use_count == 1 and demo_memories["alice"].last_used_at is not None
    assert AuditEvent.objects.filter(tenant=world.demo, event="memory_injected").count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "scope"),
        ({"scope": "alice"}, "scope"),
        ({"scope": {}}, "scope"),  # an agent must name the subject
        ({"scope": {"user_id": "x" * 129}}, "scope"),
        ({"scope": {"user_id": "alice"}, "top_k": 0}, "top_k"),
        ({"scope": {"user_id": "alice"}, "top_k": 51}, "top_k"),
        ({"scope": {"user_id": "alice"}, "top_k": "many"}, "top_k"),
        ({"scope": {"user_id": "alice"}, "token_budget": 10}, "token_budget"),
        ({"scope": {"user_id": "alice"}, "types": ["secrets"]}, "types"),
        ({"scope": {"user_id": "alice"}, "types": "user_preference"}, "types"),
        ({"scope": {"user_id": "alice"}, "language": "fr"}, "language"),
        ({"scope": {"user_id": "alice"}, "query": "q" * 8001}, "query"),
        ({"scope": {"user_id": "alice"}, "query": "nul\x00byte"}, "query"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(world, body, field):
    response = post(world.agent_client(world.demo_key), body)
    assert response.status_code == 400
    assert field in response.json()["fields"]


def test_the_agent_must_name_the_subject(world):
    response = post(world.agent_client(world.demo_key), {"scope": {"team": "ai-platform"}})
    assert response.json()["fields"] == {
        "scope": {"user_id": ["Name the subject whose memory to read (scope.user_id)."]}
    }


def test_malformed_json_is_a_400(world):
    response = world.agent_client(world.demo_key).post(URL, "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == "malformed_json"


def test_no_credentials_no_context(world, demo_memories):
    from rest_framework.test import APIClient

    response = post(APIClient(), {"scope": {"user_id": "alice"}})
    assert response.status_code in (401, 403)
    assert "Prefers" not in response.content.decode()


def test_a_revoked_key_is_refused(world, demo_memories):
    from governance.services.tenancy import agent_key_revoke

    agent_key_revoke(client=world.demo_agent, actor="test")
    response = post(world.agent_client(world.demo_key), {"scope": {"user_id": "alice"}})
    assert response.status_code == 401


def test_standing_k_bounds_the_standing_guidance(world, demo_memories):
    client = world.agent_client(world.demo_key)
    body = {"scope": {"user_id": "alice"}, "query": "kubernetes"}
    assert "Prefers short answers" in contents(post(client, body))
    assert contents(post(client, {**body, "standing_k": 0})) == ["部署用 kubernetes 和 helm"]


@pytest.mark.parametrize("value", [-1, 21, "many", None])
def test_a_bad_standing_k_is_a_400_naming_the_field(world, demo_memories, value):
    response = post(world.agent_client(world.demo_key), {"scope": {"user_id": "alice"}, "standing_k": value})
    assert response.status_code == 400 and "standing_k" in response.json()["fields"]
