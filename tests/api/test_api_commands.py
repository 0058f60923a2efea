"""POST /api/v1/commands: plans first, destructive plans only with confirm=true, the subject's own scope only."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType
from memories.models import Memory
from memories.selectors import session_is_opted_out
from memories.services.write import memory_write

URL = "/api/v1/commands"


@pytest.fixture
def alice_memories(world, make_memory) -> dict[str, Memory]:
    return {
        "tables": make_memory(world.demo, "Prefers Markdown tables", user_id="alice"),
        "docs": make_memory(
            world.demo,
            "After editing dispatch-docs, update the changelog",
            user_id="alice",
            type="project_rule",
            level=Level.PROJECT,
            project="dispatch-docs",
        ),
        "session": make_memory(
            world.demo,
            "Talking about the offsite budget",
            user_id="alice",
            type="temporary_context",
            level=Level.SESSION,
            session_id="s1",
        ),
    }


def _status(memory: Memory) -> str:
    memory.refresh_from_db()
    return memory.status


def test_list_answers_with_the_active_memories(world, alice_memories):
    response = world.agent_client(world.demo_key).post(URL, {"user_id": "alice", "text": "查看你记住了什么"}, "json")
    body = response.json()
    assert response.status_code == 200
    assert (body["intent"], body["language"], body["executed"]) == ("list", "zh", False)
    assert {m["id"] for m in body["memories"]} == {str(m.id) for m in alice_memories.values()}
    assert "条记忆正在使用" in body["message"]  # answered in the command's language


def test_delete_about_x_plans_then_runs_only_with_confirm(world, alice_memories):
    agent = world.agent_client(world.demo_key)
    command = {"user_id": "alice", "text": "删除所有关于 dispatch-docs 的记忆"}
    plan = agent.post(URL, command, "json").json()
    assert (plan["intent"], plan["destructive"], plan["requires_confirmation"], plan["executed"]) == (
        "delete_about",
        True,
        True,
        False,
    )
    assert [m["id"] for m in plan["memories"]] == [str(alice_memories["docs"].id)]
    assert _status(alice_memories["docs"]) == "active"
    done = agent.post(URL, {**command, "confirm": True}, "json").json()
    assert done["executed"] and done["changed"] == [str(alice_memories["docs"].id)]
    assert _status(alice_memories["docs"]) == "deleted"
    assert _status(alice_memories["tables"]) == "active"
    assert AuditEvent.objects.filter(event="memory_deleted", memory_id=alice_memories["docs"].id).count() == 1


def test_confirm_with_memory_ids_deletes_only_those_shown(world, alice_memories, make_memory):
    extra = make_memory(world.demo, "dispatch-docs uses MkDocs", user_id="alice")
    agent = world.agent_client(world.demo_key)
    body = agent.post(
        URL,
        {
            "user_id": "alice",
            "text": "delete all memories about dispatch-docs",
            "confirm": True,
            "memory_ids": [str(alice_memories["docs"].id)],
        },
        "json",
    ).json()
    assert body["changed"] == [str(alice_memories["docs"].id)]
    assert _status(extra) == "active"


def test_forget_the_project_i_just_mentioned(world, alice_memories):
    agent = world.agent_client(world.demo_key)
    body = agent.post(
        URL, {"user_id": "alice", "text": "Forget the project I just mentioned", "confirm": True}, "json"
    ).json()
    assert body["intent"] == "forget_recent_project" and body["changed"] == [str(alice_memories["docs"].id)]
    assert _status(alice_memories["docs"]) == "deleted"


def test_stop_using_this_preference_pauses_the_last_used_one(world, alice_memories, make_memory):
    from django.utils import timezone

    used = make_memory(world.demo, "Prefers answers in Chinese", user_id="alice")
    Memory.objects.filter(pk=used.pk).update(last_used_at=timezone.now())
    body = (
        world.agent_client(world.demo_key)
        .post(URL, {"user_id": "alice", "text": "以后不要根据这个偏好回答"}, "json")
        .json()
    )
    assert body["executed"] and body["changed"] == [str(used.id)]
    assert _status(used) == "paused" and _status(alice_memories["tables"]) == "active"


def test_dont_save_needs_a_session_and_opts_it_out(world):
    agent = world.agent_client(world.demo_key)
    missing = agent.post(URL, {"user_id": "alice", "text": "this is just for this task, don't save it"}, "json")
    assert missing.status_code == 400 and "session_id" in missing.json()["fields"]
    body = agent.post(URL, {"user_id": "alice", "text": "这只是本次任务，不要保存", "session_id": "s9"}, "json").json()
    assert body["executed"]
    assert session_is_opted_out(tenant_id=world.demo.pk, user_id="alice", session_id="s9")


def test_clear_this_session(world, alice_memories):
    agent = world.agent_client(world.demo_key)
    plan = agent.post(URL, {"user_id": "alice", "text": "clear this session", "session_id": "s1"}, "json").json()
    assert plan["requires_confirmation"] and [m["id"] for m in plan["memories"]] == [str(alice_memories["session"].id)]
    agent.post(URL, {"user_id": "alice", "text": "clear this session", "session_id": "s1", "confirm": True}, "json")
    assert _status(alice_memories["session"]) == "deleted"


def test_remember_with_content_goes_through_the_write_pipeline(world):
    agent = world.agent_client(world.demo_key)
    body = agent.post(URL, {"user_id": "alice", "text": "记住这个偏好：回答用中文"}, "json").json()
    assert body["executed"] and body["decision"]["decision"] == "save"
    memory = Memory.objects.get(pk=body["decision"]["memory_id"])
    assert (memory.content, memory.type, memory.source_type, memory.user_id) == (
        "回答用中文",
        "user_preference",
        "explicit_user_request",
        "alice",
    )
    secret = agent.post(URL, {"user_id": "alice", "text": "remember: my password is Hunter2-Secret!"}, "json").json()
    assert secret["decision"]["decision"] == "reject" and secret["decision"]["reason_code"] == "restricted_data"


def test_remember_this_preference_accepts_what_the_agent_asked_about(world):
    pending = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content="Prefers summaries first",
            scope=Scope(Level.USER, user_id="alice"),
            source_type=SourceType.AGENT_INFERENCE,
            type=MemoryType.USER_PREFERENCE,
            confidence=0.8,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
    )
    said = {"user_id": "alice", "text": "记住这个偏好", "message_id": "msg-9"}  # the person's message: consent
    body = world.agent_client(world.demo_key).post(URL, said, "json").json()
    assert body["executed"] and body["changed"] == [str(pending.memory.id)]
    assert _status(pending.memory) == "active"


def test_input_errors_name_the_field(world):
    agent = world.agent_client(world.demo_key)
    unknown = agent.post(URL, {"user_id": "alice", "text": "sing me a song"}, "json")
    assert unknown.status_code == 400 and "text" in unknown.json()["fields"] and unknown.json()["examples"]
    assert "user_id" in agent.post(URL, {"text": "what do you remember about me"}, "json").json()["fields"]
    assert "text" in agent.post(URL, {"user_id": "alice"}, "json").json()["fields"]
    assert "text" in agent.post(URL, {"user_id": "alice", "text": "x" * 600}, "json").json()["fields"]
    bad_ids = agent.post(URL, {"user_id": "alice", "text": "clear this session", "memory_ids": ["nope"]}, "json")
    assert bad_ids.status_code == 400 and "memory_ids" in bad_ids.json()["fields"]
    assert agent.post(URL, "not json", content_type="application/json").status_code == 400


def test_an_agent_of_another_tenant_sees_and_deletes_nothing(world, alice_memories):
    acme = world.agent_client(world.acme_key)
    listed = acme.post(URL, {"user_id": "alice", "text": "what do you remember about me"}, "json").json()
    assert listed["memories"] == []
    acme.post(URL, {"user_id": "alice", "text": "delete all memories about dispatch-docs", "confirm": True}, "json")
    assert _status(alice_memories["docs"]) == "active"


def test_a_person_acts_only_on_themselves(world, alice_memories):
    alice = world.user_client(world.alice)
    mine = alice.post(URL, {"text": "what do you remember about me"}, "json").json()
    assert len(mine["memories"]) == 3
    bob = world.user_client(world.bob)
    assert bob.post(URL, {"user_id": "alice", "text": "what do you remember about me"}, "json").status_code == 404
    bob.post(URL, {"text": "delete all memories about dispatch-docs", "confirm": True}, "json")
    assert _status(alice_memories["docs"]) == "active"


def test_no_credentials_no_access(client, world):
    assert client.post(URL, {"user_id": "alice", "text": "查看你记住了什么"}).status_code in (401, 403)
