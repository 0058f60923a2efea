"""Expire: memories and pending confirmations past their time, exactly at their time, exactly once."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import CommandError, call_command
from prometheus_client import REGISTRY

from audit.models import AuditEvent
from audit.verify import verify_chain
from governance.pipeline.base import Scope
from governance.vocabulary import Level, Status
from memories.lifecycle import expire as expire_module
from memories.lifecycle.expire import expire_run
from memories.models import Confirmation, Memory
from memories.selectors import memory_list_active_for_subject
from memories.services.records import NewMemory, memory_create, memory_pause

T0 = datetime(2026, 3, 1, 9, 0, 0, 123456, tzinfo=UTC)


def _memory(tenant, content="Prefers tables.", *, user_id="alice", expires_at=None, status=Status.ACTIVE) -> Memory:
    return memory_create(
        tenant_id=tenant.pk,
        new=NewMemory(
            scope=Scope(Level.USER, user_id=user_id),
            type="user_preference",
            content=content,
            source_type="explicit_user_request",
            expires_at=expires_at,
            status=status.value,
        ),
        actor="test",
    )


def _events(event: str, memory: Memory) -> int:
    return AuditEvent.objects.filter(tenant_id=memory.tenant_id, event=event, memory_id=memory.pk).count()


def test_a_memory_expires_exactly_at_its_time_not_a_microsecond_before(world):
    with time_machine.travel(T0, tick=False):
        memory = _memory(world.demo, expires_at=T0 + timedelta(hours=1))
    with time_machine.travel(T0 + timedelta(hours=1) - timedelta(microseconds=1), tick=False):
        assert expire_run()["expired"] == 0
        memory.refresh_from_db()
        assert memory.status == Status.ACTIVE
        assert list(memory_list_active_for_subject(tenant_id=world.demo.pk, user_id="alice")) == [memory]
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        # The read path hides it from this instant; the job makes the stored status agree.
        assert list(memory_list_active_for_subject(tenant_id=world.demo.pk, user_id="alice")) == []
        assert expire_run()["expired"] == 1
    memory.refresh_from_db()
    assert memory.status == Status.EXPIRED
    event = AuditEvent.objects.get(event="memory_expired", memory_id=memory.pk)
    assert event.reason_code == "ttl_expired"
    assert event.actor == "system:lifecycle.expire"
    assert event.details == {"from_status": "active", "to_status": "expired"}


def test_a_second_run_changes_nothing_and_writes_nothing(world):
    memory = _memory(world.demo, expires_at=T0)
    with time_machine.travel(T0 + timedelta(seconds=1), tick=False):
        assert expire_run()["expired"] == 1
        before = AuditEvent.objects.count()
        assert expire_run()["expired"] == 0
    assert AuditEvent.objects.count() == before
    assert _events("memory_expired", memory) == 1


def test_paused_memories_expire_too_and_memories_without_expiry_never_do(world):
    paused = _memory(world.demo, "paused one", expires_at=T0)
    memory_pause(memory=paused, actor="test")
    forever = _memory(world.demo, "kept forever")
    with time_machine.travel(T0 + timedelta(days=3650), tick=False):
        assert expire_run()["expired"] == 1
    paused.refresh_from_db()
    forever.refresh_from_db()
    assert (paused.status, forever.status) == (Status.EXPIRED, Status.ACTIVE)


def test_a_pending_confirmation_expires_with_its_pending_memory(world):
    memory = _memory(world.demo, "maybe remember this", status=Status.PENDING_CONFIRMATION)
    confirmation = Confirmation.objects.create(
        tenant=world.demo, memory=memory, confirm_by="user", requested_by="agent:x", expires_at=T0
    )
    with time_machine.travel(T0 - timedelta(microseconds=1), tick=False):
        assert expire_run()["confirmations_expired"] == 0
    with time_machine.travel(T0, tick=False):
        result = expire_run()
    assert result["confirmations_expired"] == 1
    confirmation.refresh_from_db()
    memory.refresh_from_db()
    assert confirmation.state == Confirmation.State.EXPIRED
    assert confirmation.decided_by == "system:lifecycle.expire"
    assert memory.status == Status.EXPIRED
    assert _events("confirmation_expired", memory) == 1
    assert _events("memory_expired", memory) == 1
    expired_event = AuditEvent.objects.get(event="confirmation_expired", memory_id=memory.pk)
    assert expired_event.details == {"confirmation_id": str(confirmation.pk), "confirm_by": "user"}


def test_a_pending_memory_past_its_own_ttl_closes_its_confirmation(world):
    memory = _memory(world.demo, "short-lived pending", expires_at=T0, status=Status.PENDING_CONFIRMATION)
    confirmation = Confirmation.objects.create(
        tenant=world.demo, memory=memory, confirm_by="user", requested_by="agent:x", expires_at=T0 + timedelta(days=7)
    )
    with time_machine.travel(T0, tick=False):
        assert expire_run()["expired"] == 1
    confirmation.refresh_from_db()
    assert confirmation.state == Confirmation.State.EXPIRED
    assert _events("confirmation_expired", memory) == 1


def test_a_tenant_limited_run_leaves_other_tenants_alone(world):
    demo = _memory(world.demo, expires_at=T0)
    acme = _memory(world.acme, user_id="erin", expires_at=T0)
    with time_machine.travel(T0 + timedelta(seconds=1), tick=False):
        assert expire_run(tenant_id=world.acme.pk)["expired"] == 1
    demo.refresh_from_db()
    acme.refresh_from_db()
    assert (demo.status, acme.status) == (Status.ACTIVE, Status.EXPIRED)
    assert not AuditEvent.objects.filter(tenant=world.demo, event="memory_expired").exists()


def test_batches_are_bounded_and_say_when_more_is_left(world):
    memories = [_memory(world.demo, f"pref {i}", expires_at=T0) for i in range(5)]
    with time_machine.travel(T0 + timedelta(seconds=1), tick=False):
        first = expire_run(batch_size=3)
        second = expire_run(batch_size=3)
    assert (first["expired"], first.has_more) == (3, True)
    assert (second["expired"], second.has_more) == (2, False)
    assert all(_events("memory_expired", m) == 1 for m in memories)


@pytest.mark.django_db(transaction=True)
def test_a_run_killed_half_way_leaves_no_half_applied_row_and_the_next_run_finishes(world, monkeypatch):
    memories = [_memory(world.demo, f"pref {i}", expires_at=T0) for i in range(5)]
    real_expire = expire_module.memory_expire
    calls = []

    def dies_on_the_third(**kwargs):
        memory = real_expire(**kwargs)  # the status change and its audit event are written…
        calls.append(memory.pk)
        if len(calls) == 3:
            raise RuntimeError("worker killed")  # …and the job dies before its transaction commits
        return memory

    monkeypatch.setattr(expire_module, "memory_expire", dies_on_the_third)
    with time_machine.travel(T0 + timedelta(seconds=1), tick=False), pytest.raises(RuntimeError):
        expire_run()
    statuses = {m.pk: Memory.objects.get(pk=m.pk).status for m in memories}
    done = {pk for pk, status in statuses.items() if status == Status.EXPIRED}
    assert done == set(calls[:2])
    for memory in memories:  # every row is either fully changed and audited, or untouched
        assert _events("memory_expired", memory) == (1 if memory.pk in done else 0)

    monkeypatch.undo()
    with time_machine.travel(T0 + timedelta(seconds=2), tick=False):
        assert expire_run()["expired"] == 3
    assert all(Memory.objects.get(pk=m.pk).status == Status.EXPIRED for m in memories)
    assert all(_events("memory_expired", m) == 1 for m in memories)
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_run_lifecycle_prints_the_counts(world, capsys):
    _memory(world.demo, expires_at=T0)
    with time_machine.travel(T0 + timedelta(seconds=1), tick=False):
        call_command("run_lifecycle", "--job", "expire")
    assert capsys.readouterr().out.strip() == "expire: batches=1 expired=1"


def test_run_lifecycle_without_a_job_runs_every_periodic_job(world, capsys):
    call_command("run_lifecycle", "--json", "--tenant", "demo")
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["job"] for row in rows] == [
        "extract",
        "invalidate",
        "expire",
        "unused",
        "consolidate",
        "purge",
        "reembed",
        "reindex",
        "retrieval",
        "sessions_purge",
    ]


def test_run_lifecycle_refuses_an_unknown_tenant(world):
    with pytest.raises(CommandError, match="no tenant"):
        call_command("run_lifecycle", "--tenant", "nope")


def test_job_counts_are_published_to_the_metrics(world):
    def sample(name: str, **labels: str) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    before_items = sample("memgov_lifecycle_items_total", job="expire", outcome="expired")
    before_runs = sample("memgov_lifecycle_runs_total", job="expire", result="ok")
    for i in range(2):
        _memory(world.demo, f"pref {i}", expires_at=T0)
    with time_machine.travel(T0 + timedelta(seconds=1), tick=False):
        expire_run()
    assert sample("memgov_lifecycle_items_total", job="expire", outcome="expired") == before_items + 2
    assert sample("memgov_lifecycle_runs_total", job="expire", result="ok") == before_runs + 1
