"""The sync client, endpoint by endpoint, over HTTP: answers, errors as exceptions with memgov's codes, the
other tenant's key and the read-only key."""

from __future__ import annotations

import json

import pytest
from memgov_client import AuthenticationError, BadRequest, Client, Conflict, NotFound, PermissionDenied

from audit.models import AuditEvent
from governance.services.tenancy import agent_key_create
from governance.vocabulary import READ_ONLY_SCOPES
from memories.models import Memory
from memories.services.agent_access import agent_access_set

ALICE = {"level": "user", "user_id": "alice"}
ASKED = {"source_type": "explicit_user_request"}
INFERRED = {"source_type": "agent_inference"}


def test_write_context_and_get(memgov):
    decision = memgov.memories.write(content="Remember that I prefer answers with tables.", scope=ALICE, source=ASKED)
    assert decision["decision"] == "save" and decision["reason_code"] == "explicit_request"
    context = memgov.memories.context(scope={"user_id": "alice"}, query="tables", top_k=3)
    assert [item["id"] for item in context["items"]] == [decision["memory_id"]]
    assert memgov.memories.get(decision["memory_id"])["content"] == "Remember that I prefer answers with tables."


def test_the_answer_reports_the_citations_it_used_once(memgov):
    decision = memgov.memories.write(content="Remember that I prefer answers with tables.", scope=ALICE, source=ASKED)
    context = memgov.memories.context(scope={"user_id": "alice"}, query="tables")
    cited = [item["citation_id"] for item in context["items"] if item["id"] == decision["memory_id"]]
    assert memgov.memories.used(cited) == {"recorded": 1, "repeated": 0}
    assert memgov.memories.used(cited) == {"recorded": 0, "repeated": 1}
    assert Memory.objects.get(pk=decision["memory_id"]).use_count >= 1
    with pytest.raises(BadRequest) as caught:
        memgov.memories.used([])
    assert caught.value.field == "citation_ids"


def test_a_use_reported_for_a_person_who_switched_the_agent_off_raises_permission_denied(world, memgov, acme):
    decision = memgov.memories.write(content="Remember that I prefer answers with tables.", scope=ALICE, source=ASKED)
    context = memgov.memories.context(scope={"user_id": "alice"}, query="tables")
    cited = [item["citation_id"] for item in context["items"]]
    agent_access_set(
        tenant_id=world.demo.pk, user_id="alice", agent_id=world.demo_agent.pk, blocked=True, actor="user:alice"
    )
    with pytest.raises(PermissionDenied) as caught:
        memgov.memories.used(cited)
    assert caught.value.status_code == 403 and caught.value.reason_code == "subject_blocked_agent"
    assert Memory.objects.get(pk=decision["memory_id"]).cited_count == 0
    assert AuditEvent.objects.filter(reason_code="subject_blocked_agent", subject_id="alice").count() == 1
    with pytest.raises(BadRequest):  # another tenant's key: the citations don't exist for it
        acme.memories.used(cited)


def test_a_rejected_write_is_returned_not_raised(memgov):
    secret = "My key is sk-proj-abc123def456ghi789jkl012mno345, remember it"
    decision = memgov.memories.write(content=secret, scope=ALICE, source=ASKED)
    assert decision["decision"] == "reject" and decision["reason_code"] == "restricted_data"
    assert not Memory.objects.exists()


def test_bad_input_raises_bad_request_naming_the_field(memgov):
    with pytest.raises(BadRequest) as caught:
        memgov.memories.write(content="x", scope={"level": "everywhere", "user_id": "alice"}, source=ASKED)
    assert caught.value.status_code == 400
    assert caught.value.reason_code == "invalid_request" and caught.value.field == "scope.level"
    with pytest.raises(BadRequest) as blank:
        memgov.memories.write(content="   ", scope=ALICE, source=ASKED)
    assert blank.value.reason_code == "invalid_candidate" and blank.value.field == "content"
    with pytest.raises(ValueError, match="badly formed"):
        memgov.memories.get("../confirmations")


def test_edit_pause_resume_rollback_and_delete(memgov, make_memory, world):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    edited = memgov.memories.update(memory.id, content="Prefers tables and bullet points", reason="asked")
    assert edited["version"] == 2
    assert memgov.memories.pause(memory.id)["status"] == "paused"
    assert memgov.memories.resume(memory.id)["status"] == "active"
    assert memgov.memories.rollback(memory.id, version=1)["content"] == "Prefers tables"
    with pytest.raises(BadRequest) as refused:
        memgov.memories.update(memory.id, content="My password is hunter2-Secret!9")
    assert refused.value.reason_code == "restricted_data"
    assert memgov.memories.delete(memory.id) is None
    memory.refresh_from_db()
    assert memory.status == "deleted"


def test_confirmations_accept_decline_and_a_second_settlement(memgov):
    first = memgov.memories.write(content="Prefers dark mode", scope=ALICE, source=INFERRED, confidence=0.8)
    assert first["decision"] == "ask_confirmation"
    with pytest.raises(BadRequest) as unasked:
        memgov.confirmations.accept(first["confirmation_id"])
    assert unasked.value.reason_code == "consent_required" and unasked.value.field == "instruction_message_id"
    accepted = memgov.confirmations.accept(first["confirmation_id"], instruction_message_id="msg-alice-said-yes")
    assert accepted["memory_status"] == "active"
    with pytest.raises(Conflict) as again:
        memgov.confirmations.decline(first["confirmation_id"])
    assert again.value.reason_code == "confirmation_closed"
    second = memgov.memories.write(content="Prefers vim key bindings", scope=ALICE, source=INFERRED, confidence=0.8)
    assert memgov.confirmations.decline(second["confirmation_id"])["state"] == "declined"


def test_commands_and_tasks(memgov, make_memory, world):
    listed = memgov.commands.run(text="what do you remember about me?", user_id="alice")
    assert listed["intent"] == "list" and not listed["destructive"] and listed["message"]
    with pytest.raises(BadRequest) as unknown:
        memgov.commands.run(text="sing me a song", user_id="alice")
    assert unknown.value.reason_code == "unknown_command" and unknown.value.field == "text"
    make_memory(world.demo, "Step 2 of 5 done", user_id="alice", level="task", task_id="t-1", type="task_state")
    assert memgov.tasks.complete("t-1") == {"task_id": "t-1", "archived": 1, "remaining": 0, "states_archived": 0}
    with pytest.raises(NotFound):
        memgov.tasks.complete("t-unknown")


def test_pagination_walks_every_page(memgov, make_memory, world):
    for n in range(7):
        make_memory(world.demo, f"Memory number {n}", user_id="alice")
    page = memgov.memories.list(user_id="alice", limit=3)
    assert page["count"] == 7 and len(page["results"]) == 3 and page["next"]
    walked = [m["content"] for m in memgov.memories.iter(user_id="alice", page_size=3)]
    assert sorted(walked) == sorted(f"Memory number {n}" for n in range(7))
    assert len(walked) == 7


def test_the_other_tenants_key_gets_not_found(memgov, acme, make_memory, world):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    for call in (acme.memories.get, acme.memories.delete, acme.memories.pause):
        with pytest.raises(NotFound) as caught:
            call(memory.id)
        assert caught.value.reason_code == "not_found"
    assert acme.memories.list(user_id="alice")["results"] == []
    memory.refresh_from_db()
    assert memory.status == "active"


def test_a_read_only_key_raises_permission_denied_on_writes(world, live_server):
    _agent, key = agent_key_create(tenant=world.demo, name="reader", actor="test", scopes=READ_ONLY_SCOPES)
    with Client(live_server.url, key) as reader:
        assert reader.memories.list(user_id="alice")["count"] == 0
        with pytest.raises(PermissionDenied) as caught:
            reader.memories.write(content="Prefers tables", scope=ALICE, source=ASKED)
    assert caught.value.reason_code == "insufficient_scope"
    assert "memory.write" in caught.value.detail


def test_an_unknown_key_raises_authentication_error(live_server, world):
    with Client(live_server.url, "mg_nope_nope") as stranger, pytest.raises(AuthenticationError):
        stranger.memories.list(user_id="alice")


def test_audit_export_streams_lines_ending_in_the_manifest(memgov, world, live_server):
    memgov.memories.write(content="Remember that I prefer tables.", scope=ALICE, source=ASKED)
    with pytest.raises(NotFound):
        list(memgov.audit.export())
    world.demo_agent.can_export_audit = True
    world.demo_agent.save(update_fields=["can_export_audit"])
    lines = [line for line in memgov.audit.export(format="jsonl") if line]
    assert "manifest" in json.loads(lines[-1])
    assert len(lines) > 2
    assert all("prefer tables" not in line for line in lines)
