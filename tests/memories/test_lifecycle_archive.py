"""POST /api/v1/tasks/{task_id}/complete: an agent finishes a task, its task memories are archived."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from audit.models import AuditEvent
from governance.vocabulary import Level, Status
from memories.lifecycle import archive as archive_module
from memories.models import Memory


def _url(task_id: str) -> str:
    return f"/api/v1/tasks/{task_id}/complete"


def _task_memory(make_memory, tenant, content, *, task_id="task-42", user_id="alice", level=Level.TASK):
    return make_memory(tenant, content, user_id=user_id, level=level, type="task_state", task_id=task_id)


def test_an_agent_completing_a_task_archives_its_task_memories(world, make_memory):
    first = _task_memory(make_memory, world.demo, "step 1 done")
    second = _task_memory(make_memory, world.demo, "step 2 done", user_id="bob")
    other_task = _task_memory(make_memory, world.demo, "other task", task_id="task-43")
    learned = make_memory(world.demo, "Prefers terse logs.", user_id="alice", level=Level.USER, task_id="task-42")

    response = world.agent_client(world.demo_key).post(_url("task-42"))

    assert response.status_code == 200, response.content
    assert response.json() == {"task_id": "task-42", "archived": 2, "remaining": 0, "states_archived": 0}
    statuses = {m.pk: Memory.objects.get(pk=m.pk).status for m in (first, second, other_task, learned)}
    assert statuses == {
        first.pk: Status.ARCHIVED,
        second.pk: Status.ARCHIVED,
        other_task.pk: Status.ACTIVE,
        learned.pk: Status.ACTIVE,  # a long-term memory learned during the task outlives it
    }
    event = AuditEvent.objects.get(event="memory_archived", memory_id=first.pk)
    assert (event.reason_code, event.actor) == ("task_completed", "agent:demo-agent")


def test_completing_twice_is_harmless(world, make_memory):
    _task_memory(make_memory, world.demo, "step 1 done")
    client = world.agent_client(world.demo_key)
    assert client.post(_url("task-42")).json()["archived"] == 1
    again = client.post(_url("task-42"))
    assert again.status_code == 200
    assert again.json()["archived"] == 0
    assert AuditEvent.objects.filter(event="memory_archived").count() == 1


def test_a_task_with_no_memories_looks_like_nothing_is_there(world):
    response = world.agent_client(world.demo_key).post(_url("no-such-task"))
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_another_tenants_agent_cant_complete_the_task(world, make_memory):
    memory = _task_memory(make_memory, world.demo, "step 1 done")
    response = world.agent_client(world.acme_key).post(_url("task-42"))
    assert response.status_code == 404
    assert Memory.objects.get(pk=memory.pk).status == Status.ACTIVE


def test_people_cant_use_the_agent_endpoint_not_even_the_memorys_owner(world, make_memory):
    memory = _task_memory(make_memory, world.demo, "step 1 done")
    for person in (world.alice, world.bob, world.carol):
        assert world.user_client(person).post(_url("task-42")).status_code == 404
    assert world.agent_client("mg_nope_nope").post(_url("task-42")).status_code == 401
    assert Memory.objects.get(pk=memory.pk).status == Status.ACTIVE


def test_an_agent_key_limited_to_other_levels_cant_complete_tasks(world, make_memory):
    memory = _task_memory(make_memory, world.demo, "step 1 done")
    world.demo_agent.allowed_levels = ["user"]
    world.demo_agent.save(update_fields=["allowed_levels"])
    assert world.agent_client(world.demo_key).post(_url("task-42")).status_code == 404
    assert Memory.objects.get(pk=memory.pk).status == Status.ACTIVE


def test_a_malformed_task_id_is_a_400_naming_the_field(world):
    client = world.agent_client(world.demo_key)
    for bad in ("-leading-dash", "a" * 129, "semi;colon", "%20space"):
        response = client.post(_url(bad))
        assert response.status_code == 400, bad
        assert "task_id" in response.json()["fields"]


def test_a_huge_task_is_archived_in_bounded_calls(world, make_memory, monkeypatch):
    monkeypatch.setattr(archive_module, "TASK_COMPLETE_LIMIT", 2)
    for i in range(3):
        _task_memory(make_memory, world.demo, f"step {i}")
    client = world.agent_client(world.demo_key)
    assert client.post(_url("task-42")).json() == {
        "task_id": "task-42",
        "archived": 2,
        "remaining": 1,
        "states_archived": 0,
    }
    assert client.post(_url("task-42")).json() == {
        "task_id": "task-42",
        "archived": 1,
        "remaining": 0,
        "states_archived": 0,
    }


def test_an_operator_can_archive_a_finished_task_from_the_command_line(world, make_memory, capsys):
    memory = _task_memory(make_memory, world.demo, "step 1 done")
    call_command("run_lifecycle", "--job", "archive", "--tenant", "demo", "--task-id", "task-42")
    assert capsys.readouterr().out.strip() == "archive: found=1 archived=1 remaining=0 states_archived=0"
    assert Memory.objects.get(pk=memory.pk).status == Status.ARCHIVED
    with pytest.raises(CommandError, match="--tenant and --task-id"):
        call_command("run_lifecycle", "--job", "archive", "--tenant", "demo")
