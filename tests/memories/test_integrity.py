"""One unreadable record (its ciphertext altered, or its key gone) never takes a page, a list, a read or a
command down: it is shown as unreadable to its owner, audited once as memory_integrity_failed, and never
injected into an agent's context."""

from __future__ import annotations

import pytest
from django.db import connection

from audit.models import AuditEvent
from memories.models import Memory


def _corrupt(memory: Memory) -> None:
    """Flip the last byte of the stored ciphertext (its GCM tag): what bit rot or a tamperer leaves."""
    record_id = memory.pk.hex if connection.vendor == "sqlite" else memory.pk
    with connection.cursor() as cursor:
        cursor.execute("SELECT content FROM memories_memory WHERE id = %s", [record_id])
        blob = bytearray(bytes(cursor.fetchone()[0]))
        blob[-1] ^= 0xFF
        cursor.execute("UPDATE memories_memory SET content = %s WHERE id = %s", [bytes(blob), record_id])


@pytest.fixture
def broken(world, make_memory) -> tuple[Memory, Memory]:
    good = make_memory(world.demo, "Prefers Markdown tables", user_id="alice")
    bad = make_memory(world.demo, "Works on the dispatch-docs project", user_id="alice")
    _corrupt(bad)
    return good, bad


def _failures(memory: Memory) -> int:
    return AuditEvent.objects.filter(event="memory_integrity_failed", memory_id=memory.pk).count()


def test_the_api_list_shows_the_unreadable_memory_as_unreadable(world, broken):
    good, bad = broken
    agent = world.agent_client(world.demo_key)
    for _ in range(2):
        response = agent.get("/api/v1/memories", {"user_id": "alice"})
        assert response.status_code == 200
        items = {item["id"]: item for item in response.json()["results"]}
        assert items[str(good.pk)]["content"] == "Prefers Markdown tables" and items[str(good.pk)]["readable"]
        assert items[str(bad.pk)]["content"] is None and items[str(bad.pk)]["readable"] is False
    assert _failures(bad) == 1 and _failures(good) == 0  # audited once, however often it is seen
    event = AuditEvent.objects.get(event="memory_integrity_failed")
    assert event.reason_code == "ciphertext_invalid" and event.subject_id == "alice"


def test_the_api_detail_answers_too(world, broken):
    _, bad = broken
    response = world.agent_client(world.demo_key).get(f"/api/v1/memories/{bad.pk}")
    assert response.status_code == 200 and response.json()["readable"] is False
    assert world.agent_client(world.acme_key).get(f"/api/v1/memories/{bad.pk}").status_code == 404


def test_my_memories_page_shows_it_as_unreadable(client, world, broken):
    good, bad = broken  # noqa: RUF059
    client.force_login(world.alice.user)
    page = client.get("/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Prefers Markdown tables" in text and f'data-unreadable="{bad.pk}"' in text
    searched = client.post("/", {"q": "tables"})
    assert searched.status_code == 200 and "Prefers Markdown tables" in searched.content.decode()
    assert _failures(bad) == 1
    client.force_login(world.bob.user)
    assert f'data-unreadable="{bad.pk}"' not in client.get("/").content.decode()


def test_commands_still_answer(world, broken):
    good, bad = broken  # noqa: RUF059
    agent = world.agent_client(world.demo_key)
    listed = agent.post("/api/v1/commands", {"user_id": "alice", "text": "what do you remember about me"}, "json")
    assert listed.status_code == 200
    deleted = agent.post(
        "/api/v1/commands", {"user_id": "alice", "text": "delete all memories about dispatch-docs"}, "json"
    )
    assert deleted.status_code == 200


def test_the_context_leaves_it_out_and_still_answers(world, broken):
    good, bad = broken  # noqa: RUF059
    response = world.agent_client(world.demo_key).post(
        "/api/v1/memories/context",
        {"scope": {"level": "user", "user_id": "alice"}, "query": "tables dispatch-docs"},
        format="json",
    )
    assert response.status_code == 200
    assert [item["id"] for item in response.json()["items"]] == [str(good.pk)]


def test_a_memory_whose_key_is_gone_is_unreadable_too(world, make_memory):
    from vault.datakeys import data_key_destroy

    memory = make_memory(world.demo, "Prefers dark mode", user_id="alice")
    data_key_destroy(tenant_id=world.demo.pk, owner="alice")
    response = world.agent_client(world.demo_key).get("/api/v1/memories", {"user_id": "alice"})
    assert response.status_code == 200 and response.json()["results"][0]["readable"] is False
    assert AuditEvent.objects.get(event="memory_integrity_failed", memory_id=memory.pk).reason_code == "key_missing"


def test_the_console_shows_an_unreadable_rule_as_unreadable(client, world, make_memory):
    rule = make_memory(world.demo, "Pull requests need two reviewers", level="tenant", type="organization_rule")
    _corrupt(rule)
    client.force_login(world.carol.user)
    for url in (f"/console/rules/{rule.pk}/",):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Unreadable: this record can" in response.content.decode(), url
    client.force_login(world.erin.user)
    assert client.get(f"/console/rules/{rule.pk}/").status_code == 404
