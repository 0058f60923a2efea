"""The Agents page: the tenant's agents with what each did with the person's memories, and the switch — only
ever for the person's own subject id and their own tenant's agents; bad input is a 400 that says why."""

from __future__ import annotations

import pytest
from django.test import Client

from audit.models import AuditEvent
from memories.access import caller_for_agent
from memories.agent_selectors import agent_is_blocked
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope


def login(membership) -> Client:
    client = Client()
    client.force_login(membership.user)
    return client


def blocked(world, user_id: str = "alice", agent=None) -> bool:
    agent = agent or world.demo_agent
    return agent_is_blocked(tenant_id=agent.tenant_id, user_id=user_id, agent_id=agent.pk)


def url(agent) -> str:
    return f"/agents/{agent.pk}/switch"


def test_the_page_lists_the_tenants_agents_with_their_reads_of_my_memories(world, make_memory):
    make_memory(world.demo, "Prefers answers as tables.", user_id="alice")
    caller = caller_for_agent(world.demo_agent)
    memory_context_build(caller=caller, request=ContextRequest(scope=ContextScope(user_id="alice"), query="tables"))
    page = login(world.alice).get("/agents/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "demo-agent" in text and "acme-agent" not in text
    assert "1 read" in text and 'role="switch"' in text and 'aria-checked="true"' in text
    # bob's page: the same agent, none of alice's activity.
    bobs = login(world.bob).get("/agents/").content.decode()
    assert "demo-agent" in bobs and "1 read" not in bobs
    # erin, in acme, sees acme's agent only.
    erins = login(world.erin).get("/agents/").content.decode()
    assert "acme-agent" in erins and "demo-agent" not in erins


def test_the_switch_turns_one_agent_off_and_on_for_me_only(world):
    alice = login(world.alice)
    response = alice.post(url(world.demo_agent), {"use": "off"})
    assert response.status_code == 302 and response["Location"] == "/agents/"
    assert blocked(world) and not blocked(world, "bob")
    page = alice.get("/agents/").content.decode()
    assert 'aria-checked="false"' in page and "is switched off" in page
    assert AuditEvent.objects.filter(event="subject_agent_blocked", subject_id="alice", actor="user:alice").count() == 1
    alice.post(url(world.demo_agent), {"use": "on"})
    assert not blocked(world)
    assert AuditEvent.objects.filter(event="subject_agent_allowed", subject_id="alice").count() == 1


def test_bob_switching_the_agent_off_is_his_own_switch_never_alices(world):
    login(world.alice).post(url(world.demo_agent), {"use": "off"})
    assert login(world.bob).post(url(world.demo_agent), {"use": "on"}).status_code == 302
    assert blocked(world)  # alice's switch is still off: bob only ever sets his own
    assert not blocked(world, "bob")
    # There is no field naming the person: a user_id sent along is ignored.
    login(world.bob).post(url(world.demo_agent), {"use": "on", "user_id": "alice"})
    assert blocked(world)


def test_another_tenants_agent_is_not_found(world):
    assert login(world.alice).post(url(world.acme_agent), {"use": "off"}).status_code == 404
    assert login(world.erin).post(url(world.demo_agent), {"use": "off"}).status_code == 404
    assert login(world.alice).post("/agents/999999/switch", {"use": "off"}).status_code == 404
    assert not AuditEvent.objects.filter(event="subject_agent_blocked").exists()


@pytest.mark.parametrize("data", [{}, {"use": ""}, {"use": "maybe"}, {"use": "off" * 100}])
def test_bad_input_is_a_400_that_says_what_to_send(world, data):
    response = login(world.alice).post(url(world.demo_agent), data)
    assert response.status_code == 400
    assert "Say whether this agent may use your memories (on or off)." in response.content.decode()
    assert not blocked(world)


def test_the_switch_wants_a_post_and_a_login(world):
    assert login(world.alice).get(url(world.demo_agent)).status_code == 405
    anonymous = Client().post(url(world.demo_agent), {"use": "off"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not blocked(world)
