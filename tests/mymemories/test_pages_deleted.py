"""Recently deleted: the owner sees what they deleted during the purge grace and may restore it; nobody
else sees or restores it; a declined confirmation is not restorable."""

from __future__ import annotations

from audit.models import AuditEvent
from memories.models import Memory
from memories.services.records import memory_delete, memory_pause


def test_the_owner_sees_and_restores_a_deleted_memory_to_its_earlier_status(client, world, make_memory):
    kept = make_memory(world.demo, "Prefers tables", user_id="alice")
    paused = make_memory(world.demo, "Prefers dark mode", user_id="alice")
    memory_pause(memory=paused, actor="user:alice")
    for memory in (kept, paused):
        memory_delete(memory=memory, actor="user:alice")
    client.force_login(world.alice.user)
    page = client.get("/deleted/").content.decode()
    assert f'data-deleted="{kept.pk}"' in page and "Prefers dark mode" in page
    assert client.post(f"/memories/{paused.pk}/restore").status_code == 302
    assert Memory.objects.get(pk=paused.pk).status == "paused"  # back to what it was, not simply active
    assert AuditEvent.objects.filter(event="memory_restored", memory_id=paused.pk).count() == 1
    assert f'data-deleted="{paused.pk}"' not in client.get("/deleted/").content.decode()


def test_a_teammate_and_the_other_tenant_neither_see_nor_restore_it(client, world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    memory_delete(memory=memory, actor="user:alice")
    for person in (world.bob, world.erin):
        client.force_login(person.user)
        assert f'data-deleted="{memory.pk}"' not in client.get("/deleted/").content.decode()
        assert client.post(f"/memories/{memory.pk}/restore").status_code == 404
    assert Memory.objects.get(pk=memory.pk).status == "deleted"


def test_restore_answers_404_for_a_live_or_missing_memory_and_405_for_get(client, world, make_memory):
    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    client.force_login(world.alice.user)
    assert client.post(f"/memories/{memory.pk}/restore").status_code == 404
    assert client.post("/memories/0190a0a0-0000-7000-8000-000000000000/restore").status_code == 404
    assert client.get(f"/memories/{memory.pk}/restore").status_code == 405
    assert client.post("/memories/not-a-uuid/restore").status_code == 404


def test_a_declined_confirmation_is_not_listed_or_restorable(client, world):
    from governance.pipeline.base import Candidate, Scope
    from governance.vocabulary import Level, MemoryType, SourceType
    from memories.services.confirmations import confirmation_decline
    from memories.services.write import memory_write

    pending = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content="Seems to prefer emoji",
            scope=Scope(Level.USER, user_id="alice"),
            source_type=SourceType.AGENT_INFERENCE,
            type=MemoryType.USER_PREFERENCE,
            confidence=0.7,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
    )
    confirmation_decline(confirmation=pending.confirmation, actor="user:alice")
    client.force_login(world.alice.user)
    assert f'data-deleted="{pending.memory.pk}"' not in client.get("/deleted/").content.decode()
    client.post(f"/memories/{pending.memory.pk}/restore")
    assert Memory.objects.get(pk=pending.memory.pk).status == "deleted"
