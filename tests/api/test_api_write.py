"""POST /api/v1/memories/write and the confirmations API, through the real pipeline."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from memories.models import Confirmation, Memory


def _candidate(content: str, **overrides: object) -> dict[str, object]:
    body: dict[str, object] = {
        "type": "user_preference",
        "content": content,
        "scope": {"level": "user", "user_id": "alice"},
        "source": {"source_type": "explicit_user_request", "source_message_id": "msg-1"},
        "confidence": 0.95,
    }
    body.update(overrides)
    return body


def _write(world, body: dict[str, object], key: str | None = None):
    return world.agent_client(key or world.demo_key).post("/api/v1/memories/write", body, format="json")


def test_an_explicit_preference_is_saved_encrypted_and_audited(world):
    response = _write(world, _candidate("记住我喜欢回答里多用表格。"))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["decision"] == "save" and body["type"] == "user_preference" and body["sensitivity"] == "low"
    memory = Memory.objects.get(pk=body["memory_id"])
    assert memory.status == "active" and memory.content == "记住我喜欢回答里多用表格。"
    assert memory.agent == world.demo_agent and memory.policy_version == body["policy_version"] == 1
    events = list(
        AuditEvent.objects.filter(tenant=world.demo, event__startswith="memory_").values_list("event", flat=True)
    )
    assert events[-3:] == ["memory_candidate_detected", "memory_write_requested", "memory_write_approved"]


def test_a_secret_is_rejected_and_nothing_of_it_is_stored_or_audited(world):
    secret = "sk-proj-" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3"
    response = _write(world, _candidate(f"Remember my OpenAI key {secret}", type=None))
    body = response.json()
    assert body["decision"] == "reject" and body["reason_code"] == "restricted_data"
    assert body["sensitivity"] == "restricted" and body["memory_id"] is None
    assert not Memory.objects.exists()
    for row in AuditEvent.objects.filter(tenant=world.demo).values():
        assert secret not in str(row)
    rejected = AuditEvent.objects.get(event="memory_write_rejected")
    assert rejected.entity_types and rejected.reason_code == "restricted_data"


def test_the_same_memory_twice_is_deduplicated(world):
    first = _write(world, _candidate("I like bullet lists.")).json()
    second = _write(world, _candidate("i like bullet lists")).json()
    assert second["decision"] == "save" and second["deduplicated"] is True
    assert second["memory_id"] == first["memory_id"]
    assert Memory.objects.count() == 1


def test_an_inferred_preference_waits_for_the_user_who_can_accept_it(world):
    body = _write(
        world,
        _candidate("The user seems to prefer dark mode.", source={"source_type": "agent_inference"}, confidence=0.7),
    ).json()
    assert body["decision"] == "ask_confirmation" and body["confirm_by"] == "user"
    memory = Memory.objects.get(pk=body["memory_id"])
    assert memory.status == "pending_confirmation"
    # bob (teammate) and the other tenant's agent can't settle it; alice can.
    assert (
        world.user_client(world.bob).post(f"/api/v1/confirmations/{body['confirmation_id']}/accept").status_code == 404
    )
    acme = world.agent_client(world.acme_key)
    assert acme.post(f"/api/v1/confirmations/{body['confirmation_id']}/accept").status_code == 404
    response = world.user_client(world.alice).post(f"/api/v1/confirmations/{body['confirmation_id']}/accept")
    assert response.status_code == 200 and response.json()["memory_status"] == "active"
    again = world.user_client(world.alice).post(f"/api/v1/confirmations/{body['confirmation_id']}/decline")
    assert again.status_code == 409


def test_declining_deletes_the_pending_memory(world):
    body = _write(
        world, _candidate("The user probably likes emoji.", source={"source_type": "agent_inference"}, confidence=0.6)
    ).json()
    response = world.agent_client(world.demo_key).post(f"/api/v1/confirmations/{body['confirmation_id']}/decline")
    assert response.json()["memory_status"] == "deleted"


def test_an_org_rule_from_an_admin_waits_for_another_admin(world, django_user_model):
    from governance.services.tenancy import membership_set, user_create

    rule = _candidate(
        "All repositories must have a CODEOWNERS file.",
        type="organization_rule",
        scope={"level": "tenant"},
        on_behalf_of="carol",
    )
    body = _write(world, rule).json()
    assert body["decision"] == "ask_confirmation" and body["confirm_by"] == "admin"
    url = f"/api/v1/confirmations/{body['confirmation_id']}/accept"
    # The agent can't approve rules; the proposer can't approve their own; a member can't either.
    assert world.agent_client(world.demo_key).post(url).status_code == 404
    assert world.user_client(world.alice).post(url).status_code == 404
    refused = world.user_client(world.carol).post(url)
    assert refused.status_code == 409 and "four eyes" in refused.json()["detail"]
    frank = membership_set(
        tenant=world.demo, user=user_create(username="frank", password="x-x-x-x-1"), role="tenant_admin", actor="t"
    )
    accepted = world.user_client(frank).post(url)
    assert accepted.status_code == 200 and accepted.json()["memory_status"] == "active"
    assert Confirmation.objects.get(pk=body["confirmation_id"]).decided_by == "user:frank"


def test_a_member_cannot_write_org_rules(world):
    body = _write(
        world,
        _candidate("组织规则：周五不发版。", type="organization_rule", scope={"level": "tenant"}, on_behalf_of="alice"),
    ).json()
    assert body["decision"] == "reject" and body["reason_code"] == "not_authorized"


def test_a_shared_project_rule_needs_an_admin_and_then_another_admins_approval(world):
    """A project memory with no subject is given to every member of the project: a rule, not a note."""
    shared = {"level": "project", "project": "dispatch-docs"}
    text = "dispatch-docs: merge docs-only changes without waiting for CI."
    by_agent = _write(world, _candidate(text, type="project_rule", scope=shared)).json()
    assert by_agent["decision"] == "reject" and by_agent["reason_code"] == "not_authorized"
    by_member = _write(world, _candidate(text, type="project_rule", scope=shared, on_behalf_of="alice")).json()
    assert by_member["decision"] == "reject" and by_member["reason_code"] == "not_authorized"
    by_acme = _write(world, _candidate(text, type="project_rule", scope=shared), key=world.acme_key).json()
    assert by_acme["decision"] == "reject" and by_acme["reason_code"] == "not_authorized"
    by_admin = _write(world, _candidate(text, type="project_rule", scope=shared, on_behalf_of="carol")).json()
    assert by_admin["decision"] == "ask_confirmation" and by_admin["confirm_by"] == "admin"
    assert Memory.objects.get(pk=by_admin["memory_id"]).status == "pending_approval"
    # alice's own note about the project is hers alone, and needs no approval
    own = {**shared, "user_id": "alice"}
    mine = _write(world, _candidate("For dispatch-docs I review the changelog first.", type="project_rule", scope=own))
    assert mine.json()["decision"] == "save"
    assert not Memory.objects.filter(tenant=world.demo, level="project", user_id="", status="active").exists()


def test_a_paused_subject_gets_user_paused(world):
    from memories.services.subjects import subject_set_paused

    subject_set_paused(tenant_id=world.demo.pk, user_id="alice", paused=True, actor="test")
    assert _write(world, _candidate("Remember I like tables.")).json()["reason_code"] == "user_paused"


def test_an_opted_out_session_gets_session_opt_out(world):
    from memories.services.subjects import session_opt_out

    session_opt_out(tenant_id=world.demo.pk, user_id="alice", session_id="s-1", actor="test")
    body = _write(world, _candidate("Remember I like tables.", session_id="s-1")).json()
    assert body["reason_code"] == "session_opt_out"


def test_the_other_tenants_agent_writes_into_its_own_tenant_only(world):
    body = _write(world, _candidate("Prefers English."), key=world.acme_key).json()
    memory = Memory.objects.get(pk=body["memory_id"])
    assert memory.tenant == world.acme
    assert world.agent_client(world.demo_key).get(f"/api/v1/memories/{memory.pk}").status_code == 404


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"type": "not_a_type"}, "type"),
        ({"scope": {"level": "galaxy"}}, "scope"),
        ({"source": {"source_type": "rumour"}}, "source"),
        ({"content": ""}, "content"),
        ({"content": "x" * 2001}, "content"),
        ({"expires_at": "next tuesday"}, "expires_at"),
        ({"expires_at": "2001-01-01T00:00:00Z"}, "expires_at"),
        ({"confidence": 7}, "confidence"),
        ({"scope": {"level": "session", "user_id": "alice"}}, "scope.session_id"),
    ],
)
def test_invalid_input_is_a_400_naming_the_field(world, change, field):
    response = _write(world, {**_candidate("Remember I like tables."), **change})
    assert response.status_code == 400, response.content
    body = response.json()
    named = body.get("field") or ",".join(body.get("fields", {}))
    assert field.split(".")[0] in named
    assert not Memory.objects.exists()


def test_malformed_json_is_a_400(world):
    response = world.agent_client(world.demo_key).generic(
        "POST", "/api/v1/memories/write", '{"content": ', content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["error"] == "malformed_json"


DEEP_JSON = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("url", ["/api/v1/memories/write", "/api/v1/memories/context", "/api/v1/commands"])
def test_json_nested_too_deeply_is_a_400(world, url):
    # Found by hand beside the fuzz test: the json module's RecursionError went through DRF, a 500.
    response = world.agent_client(world.demo_key).generic("POST", url, DEEP_JSON, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "error": "malformed_json",
        "detail": "JSON parse error - the document is nested too deeply.",
    }
    assert not Memory.objects.exists()


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"content=remember+I+like+tables", "application/x-www-form-urlencoded; charset=punycode"),
        (
            b'--b\r\nContent-Disposition: form-data; name="content"\r\n\r\nremember I like tables\r\n--b--\r\n',
            "multipart/form-data; boundary=b; charset=idna",
        ),
    ],
)
def test_a_form_its_charset_cannot_decode_is_a_400(world, body, content_type):
    # Found by hand beside the fuzz test: DRF's form parsers let the codec's UnicodeError through, a 500.
    response = world.agent_client(world.demo_key).generic(
        "POST", "/api/v1/memories/write", body, content_type=content_type
    )
    assert response.status_code == 400
    assert response.json()["error"] == "malformed_json" and "send UTF-8" in response.json()["detail"]
    assert not Memory.objects.exists()


def test_a_key_limited_to_some_levels_gets_a_400_for_others(world):
    world.demo_agent.allowed_levels = ["session", "task"]
    world.demo_agent.save(update_fields=["allowed_levels"])
    response = _write(world, _candidate("Remember I like tables."))
    assert response.status_code == 400 and response.json()["field"] == "scope.level"


def test_a_person_can_only_write_for_themself(world):
    response = world.user_client(world.bob).post(
        "/api/v1/memories/write", _candidate("Remember alice likes tables."), format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "scope.user_id"
