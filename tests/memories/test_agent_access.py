"""A person's switch for one agent: the service (audited, same transaction, only the person's own record, only
their tenant's agents), what the read and write paths make of it, and the activity the Agents page shows."""

from __future__ import annotations

import pytest
from django.db import transaction

from audit.models import AuditEvent
from governance.pipeline.base import Candidate, Scope
from governance.services.tenancy import agent_key_create
from governance.vocabulary import DecisionKind, Level, SourceType, Status
from memories.access import Caller, caller_for_agent, memory_for_caller
from memories.agent_selectors import agent_activity_for_subject, agent_is_blocked
from memories.models import AgentAccess, Memory
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope, memory_context_rows, read_grant_for
from memories.services.agent_access import AgentAccessError, agent_access_set
from memories.services.subjects import subject_erase
from memories.services.write import memory_write


def switch(world, *, blocked: bool, user_id: str = "alice", agent=None, tenant=None) -> bool:
    return agent_access_set(
        tenant_id=(tenant or world.demo).pk,
        user_id=user_id,
        agent_id=(agent or world.demo_agent).pk,
        blocked=blocked,
        actor=f"user:{user_id}",
    )


def ask(caller: Caller, user_id: str = "alice", query: str = "tables"):
    return memory_context_build(caller=caller, request=ContextRequest(scope=ContextScope(user_id=user_id), query=query))


def remember(world, content: str, *, agent, user_id: str = "alice", on_behalf_of: str = ""):
    candidate = Candidate(
        content=content, scope=Scope(Level.USER, user_id=user_id), source_type=SourceType.EXPLICIT_USER_REQUEST
    )
    return memory_write(
        tenant_id=world.demo.pk, candidate=candidate, actor_label=f"agent:{agent.name}", agent=agent,
        on_behalf_of=on_behalf_of,
    )  # fmt: skip


def test_switching_off_and_on_is_audited_in_the_same_transaction_and_says_only_ids(world):
    with transaction.atomic():
        assert switch(world, blocked=True)
        event = AuditEvent.objects.get(event="subject_agent_blocked")  # written inside the switch's transaction
    assert event.subject_id == "alice" and event.agent_version == "demo-agent" and event.actor == "user:alice"
    assert event.details == {"agent_id": world.demo_agent.pk}
    assert agent_is_blocked(tenant_id=world.demo.pk, user_id="alice", agent_id=world.demo_agent.pk)
    assert not switch(world, blocked=True)  # already off: nothing changes, no second event
    assert switch(world, blocked=False)
    assert not agent_is_blocked(tenant_id=world.demo.pk, user_id="alice", agent_id=world.demo_agent.pk)
    assert list(AuditEvent.objects.filter(event__startswith="subject_agent").values_list("event", flat=True)) == [
        "subject_agent_blocked",
        "subject_agent_allowed",
    ]
    assert not switch(world, blocked=False, user_id="bob")  # on when never off: no row, no event
    assert not AgentAccess.objects.filter(user_id="bob").exists()


def test_a_failed_audit_leaves_the_switch_as_it_was(world, monkeypatch):
    import memories.services.agent_access as service

    def broken(**fields):
        raise RuntimeError("audit down")

    monkeypatch.setattr(service, "audit_record", broken)
    with pytest.raises(RuntimeError):
        switch(world, blocked=True)
    assert not AgentAccess.objects.exists()


def test_another_tenants_agent_cannot_be_switched(world):
    with pytest.raises(AgentAccessError):
        switch(world, blocked=True, agent=world.acme_agent)  # erin's tenant's agent, from demo
    with pytest.raises(AgentAccessError):
        switch(world, blocked=True, user_id="erin", tenant=world.acme, agent=world.demo_agent)
    with pytest.raises(AgentAccessError):
        switch(world, blocked=True, user_id="")
    assert not AgentAccess.objects.exists() and not AuditEvent.objects.filter(event="subject_agent_blocked").exists()


def test_a_switched_off_agent_reads_nothing_of_that_person_and_the_others_still_do(world, make_memory):
    make_memory(world.demo, "Prefers answers as tables.", user_id="alice")
    make_memory(world.demo, "Prefers tables too.", user_id="bob")
    other, _ = agent_key_create(tenant=world.demo, name="calendar-bot", actor="test")
    blocked, allowed = caller_for_agent(world.demo_agent), caller_for_agent(other)
    assert ask(blocked).items
    switch(world, blocked=True)
    result = ask(blocked)
    assert result.items == () and result.rendered == ""
    read = AuditEvent.objects.filter(event="memory_read", agent_version="demo-agent").latest("seq")
    assert read.reason_code == "subject_blocked_agent" and read.details["count"] == 0
    # The selector itself selects nothing for such a grant, whoever holds it (a handoff, say).
    grant = read_grant_for(caller=blocked, scope=ContextScope(user_id="alice")).grant
    assert grant is not None and grant.agent_blocked
    assert memory_context_rows(grant=grant, now=read.created_at) == []
    assert ask(allowed).items  # another agent of the tenant: untouched
    assert ask(blocked, user_id="bob").items  # another person's memories: alice's switch is hers alone
    switch(world, blocked=False)
    assert ask(blocked).items  # on again: access restored


def test_a_switched_off_agent_can_neither_get_nor_change_a_memory_of_that_person(world, make_memory):
    memory = make_memory(world.demo, "Prefers answers as tables.", user_id="alice")
    caller = caller_for_agent(world.demo_agent)
    assert memory_for_caller(caller, memory.pk) == memory
    switch(world, blocked=True)
    from django.http import Http404

    for change in (False, True):
        with pytest.raises(Http404):
            memory_for_caller(caller, memory.pk, change=change)


def test_its_writes_about_that_person_are_rejected_with_the_reason_code(world):
    switch(world, blocked=True)
    result = remember(world, "Remember that I like tables.", agent=world.demo_agent)
    assert result.decision.kind == DecisionKind.REJECT and result.memory is None
    assert result.decision.reason_code == "subject_blocked_agent"
    rejected = AuditEvent.objects.get(event="memory_write_rejected")
    assert rejected.reason_code == "subject_blocked_agent" and rejected.agent_version == "demo-agent"
    assert not Memory.objects.exists()
    # Written on alice's behalf into someone else's scope: still hers to refuse (deny when either names it off).
    assert remember(world, "Remember that I like tables.", agent=world.demo_agent, user_id="bob",
                    on_behalf_of="alice").decision.reason_code == "subject_blocked_agent"  # fmt: skip
    # Bob never switched it off; another agent is not switched off for alice.
    assert remember(world, "Remember that I like tables.", agent=world.demo_agent, user_id="bob").memory is not None
    other, _ = agent_key_create(tenant=world.demo, name="calendar-bot", actor="test")
    assert remember(world, "Remember that I like tables.", agent=other).memory is not None
    switch(world, blocked=False)
    saved = remember(world, "Remember that I write Python.", agent=world.demo_agent)
    assert saved.decision.kind == DecisionKind.SAVE and saved.memory.status == Status.ACTIVE


def test_the_activity_counts_reads_writes_and_refusals_per_agent_of_the_tenant_only(world, make_memory):
    make_memory(world.demo, "Prefers answers as tables.", user_id="alice")
    agent_key_create(tenant=world.demo, name="calendar-bot", actor="test")
    caller = caller_for_agent(world.demo_agent)
    remember(world, "Remember that I like tables.", agent=world.demo_agent)
    ask(caller)
    ask(caller)
    ask(caller, user_id="bob")  # bob's, not alice's
    switch(world, blocked=True)
    ask(caller)
    remember(world, "Remember that I like charts.", agent=world.demo_agent)
    by_name = {a.agent.name: a for a in agent_activity_for_subject(tenant_id=world.demo.pk, user_id="alice")}
    assert set(by_name) == {"demo-agent", "calendar-bot"}  # never acme-agent
    mine = by_name["demo-agent"]
    assert (mine.writes, mine.reads, mine.refused, mine.blocked) == (1, 2, 2, True)
    assert mine.last_read is not None and mine.last_write is not None and mine.last_refused >= mine.last_read
    quiet = by_name["calendar-bot"]
    assert (quiet.writes, quiet.reads, quiet.refused, quiet.blocked, quiet.last_read) == (0, 0, 0, False, None)
    bobs = {a.agent.name: a for a in agent_activity_for_subject(tenant_id=world.demo.pk, user_id="bob")}
    assert (bobs["demo-agent"].reads, bobs["demo-agent"].blocked) == (1, False)
    assert [a.agent.name for a in agent_activity_for_subject(tenant_id=world.acme.pk, user_id="alice")] == [
        "acme-agent"
    ]


def test_erasing_the_person_removes_their_switches(world):
    switch(world, blocked=True)
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    assert not AgentAccess.objects.exists()
