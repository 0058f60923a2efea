"""Selectors take the tenant and the subject; nothing returns another tenant's or subject's rows."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from memories.selectors import memory_get, memory_list_active_for_subject, memory_list_for_subject
from memories.services.records import memory_pause


def test_list_never_returns_another_tenants_rows_with_the_same_subject_id(world, make_memory):
    make_memory(world.demo, "demo alice", user_id="alice")
    make_memory(world.acme, "acme alice", user_id="alice")
    demo = [m.content for m in memory_list_for_subject(tenant_id=world.demo.pk, user_id="alice")]
    acme = [m.content for m in memory_list_for_subject(tenant_id=world.acme.pk, user_id="alice")]
    assert demo == ["demo alice"] and acme == ["acme alice"]


def test_get_returns_none_for_another_tenant_or_subject(world, make_memory):
    memory = make_memory(world.demo, "demo alice", user_id="alice")
    assert memory_get(tenant_id=world.acme.pk, memory_id=memory.pk) is None
    assert memory_get(tenant_id=world.demo.pk, memory_id=memory.pk, user_id="bob") is None
    assert memory_get(tenant_id=world.demo.pk, memory_id=memory.pk, user_id="alice") == memory


def test_active_list_hides_paused_and_expired_even_before_a_sweep(world, make_memory):
    live = make_memory(world.demo, "live", user_id="alice")
    paused = make_memory(world.demo, "paused", user_id="alice")
    memory_pause(memory=paused, actor="test")
    expired = make_memory(world.demo, "expired", user_id="alice")
    type(expired).objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    active = list(memory_list_active_for_subject(tenant_id=world.demo.pk, user_id="alice"))
    assert active == [live]
