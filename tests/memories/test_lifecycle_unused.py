"""Unused: memories nobody used for the policy's max_unused_days are archived (and audited)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine

from audit.models import AuditEvent
from governance.models import PolicyVersion
from governance.pipeline.base import Scope
from governance.vocabulary import Level, Status
from memories.lifecycle.unused import unused_run
from memories.models import Memory
from memories.services.records import NewMemory, memory_create, memory_pause

T0 = datetime(2026, 1, 1, tzinfo=UTC)
MAX_UNUSED = timedelta(days=180)  # the default policy's max_unused_days


def _memory(tenant, content, *, user_id="alice", level=Level.USER, type="user_preference", **scope) -> Memory:
    return memory_create(
        tenant_id=tenant.pk,
        new=NewMemory(
            scope=Scope(level, user_id=user_id, **scope),
            type=type,
            content=content,
            source_type="explicit_user_request",
        ),
        actor="test",
    )


def test_a_memory_never_used_is_archived_once_older_than_max_unused_days(world):
    with time_machine.travel(T0, tick=False):
        memory = _memory(world.demo, "Prefers tables.")
    with time_machine.travel(T0 + MAX_UNUSED, tick=False):
        assert unused_run()["archived"] == 0
    with time_machine.travel(T0 + MAX_UNUSED + timedelta(seconds=1), tick=False):
        assert unused_run()["archived"] == 1
        assert unused_run()["archived"] == 0
    memory.refresh_from_db()
    assert memory.status == Status.ARCHIVED
    event = AuditEvent.objects.get(event="memory_archived", memory_id=memory.pk)
    assert (event.reason_code, event.actor) == ("unused", "system:lifecycle.unused")


def test_recent_use_keeps_a_memory(world):
    with time_machine.travel(T0, tick=False):
        used = _memory(world.demo, "used lately")
        idle = _memory(world.demo, "never used")
    Memory.objects.filter(pk=used.pk).update(last_used_at=T0 + timedelta(days=100))
    with time_machine.travel(T0 + MAX_UNUSED + timedelta(days=1), tick=False):
        assert unused_run()["archived"] == 1
    used.refresh_from_db()
    idle.refresh_from_db()
    assert (used.status, idle.status) == (Status.ACTIVE, Status.ARCHIVED)


def test_shared_rules_and_paused_memories_do_not_lapse_but_a_persons_own_rules_do(world):
    with time_machine.travel(T0, tick=False):
        rule = _memory(
            world.demo,
            "Never deploy on Fridays.",
            user_id="",
            level=Level.TEAM,
            type="organization_rule",
            team="ai-platform",
        )
        paused = memory_pause(memory=_memory(world.demo, "paused by alice"), actor="test")
        own_project_rule = _memory(
            world.demo, "Update the changelog.", level=Level.PROJECT, type="project_rule", project="docs"
        )
    with time_machine.travel(T0 + timedelta(days=3650), tick=False):
        assert unused_run()["archived"] == 1
    statuses = {m.pk: Memory.objects.get(pk=m.pk).status for m in (rule, paused, own_project_rule)}
    assert statuses == {rule.pk: Status.ACTIVE, paused.pk: Status.PAUSED, own_project_rule.pk: Status.ARCHIVED}


def test_each_tenant_uses_its_own_policy(world):
    document = dict(PolicyVersion.objects.get(tenant=world.acme, version=1).document, max_unused_days=7)
    PolicyVersion.objects.create(tenant=world.acme, version=2, document=document, created_by="test")
    with time_machine.travel(T0, tick=False):
        demo = _memory(world.demo, "demo pref")
        acme = _memory(world.acme, "acme pref", user_id="erin")
    with time_machine.travel(T0 + timedelta(days=8), tick=False):
        assert unused_run()["archived"] == 1
    assert Memory.objects.get(pk=demo.pk).status == Status.ACTIVE
    assert Memory.objects.get(pk=acme.pk).status == Status.ARCHIVED
