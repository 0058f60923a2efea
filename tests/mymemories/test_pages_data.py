"""Export my data (a JSON download) and erase everything (typed phrase, crypto-shredding, a receipt)."""

from __future__ import annotations

import json

from django.test import Client

from audit.models import AuditEvent
from memories.models import ErasureReceipt, Memory
from vault.models import DataKey


def _login(membership, **headers) -> Client:
    client = Client(headers=headers)
    client.force_login(membership.user)
    return client


def test_export_is_a_post_download_of_my_memories_history_and_audit_events(world, make_memory):
    mine = make_memory(world.demo, "Prefers tables", user_id="alice")
    make_memory(world.demo, "Bob's secret plan", user_id="bob")
    alice = _login(world.alice)
    alice.post(f"/memories/{mine.id}/edit", {"content": "Prefers bullet lists"})
    assert alice.get("/data/export").status_code == 405
    response = alice.post("/data/export")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="memgov-my-data-')
    document = json.loads(response.content)
    assert document["user_id"] == "alice" and document["tenant"] == "demo"
    (memory,) = document["memories"]
    assert memory["content"] == "Prefers bullet lists"
    assert [v["content"] for v in memory["versions"]] == ["Prefers tables", "Prefers bullet lists"]
    events = {e["event"] for e in document["audit_events"]}
    assert {"memory_write_approved", "memory_updated"} <= events
    assert all(e["subject_id"] == "alice" or e["memory_id"] == str(mine.id) for e in document["audit_events"])
    assert "Bob's secret plan" not in response.content.decode()
    exported = AuditEvent.objects.get(event="subject_exported")
    assert (exported.subject_id, exported.actor) == ("alice", "user:alice")


def test_erase_needs_the_typed_phrase(world, make_memory):
    make_memory(world.demo, "Prefers tables", user_id="alice")
    alice = _login(world.alice)
    response = alice.post("/data/erase", {"phrase": "yes"})
    assert response.status_code == 400 and "doesn" in response.content.decode()
    assert Memory.objects.filter(user_id="alice").count() == 1


def test_erase_shreds_the_key_and_shows_a_receipt(world, make_memory):
    make_memory(world.demo, "Prefers tables", user_id="alice")
    bobs = make_memory(world.demo, "Bob likes TL;DR", user_id="bob")
    alice = _login(world.alice)
    response = alice.post("/data/erase", {"phrase": "  Erase my memories "})
    assert response.status_code == 302
    receipt = ErasureReceipt.objects.get(user_id="alice")
    assert response["Location"] == f"/data/erase/receipts/{receipt.id}"
    page = alice.get(response["Location"]).content.decode()
    assert str(receipt.id) in page and 'data-testid="memories-erased">1<' in page
    assert not Memory.objects.filter(tenant=world.demo, user_id="alice").exists()
    assert not DataKey.objects.filter(tenant_id=world.demo.pk, owner="alice").exists()
    bobs.refresh_from_db()
    assert bobs.content == "Bob likes TL;DR"
    # Someone else's receipt is a 404, like a missing one.
    assert _login(world.bob).get(response["Location"]).status_code == 404


def test_erase_accepts_the_chinese_phrase(world, make_memory):
    make_memory(world.demo, "偏好中文回答", user_id="alice")
    alice = _login(world.alice, accept_language="zh-hans")
    assert "删除我的全部记忆" in alice.get("/data/erase").content.decode()
    assert alice.post("/data/erase", {"phrase": "删除我的全部记忆"}).status_code == 302
    assert not Memory.objects.filter(tenant=world.demo, user_id="alice").exists()


def test_the_erase_page_says_what_will_be_erased_and_counts_only_mine(world, make_memory):
    make_memory(world.demo, "Alice prefers tables.", user_id="alice")
    make_memory(world.demo, "Alice prefers short answers.", user_id="alice")
    make_memory(world.demo, "Bob prefers tables too.", user_id="bob")
    make_memory(world.acme, "Acme's alice prefers emoji.", user_id="alice")
    page = _login(world.alice).get("/data/erase").content.decode()
    assert "What will be erased: 2 memories and 0 sessions, with their history." in page
    assert Memory.objects.filter(user_id="alice").count() == 3  # showing it erased nothing
    zh = _login(world.alice)
    zh.cookies.load({"django_language": "zh-hans"})
    assert "将被清除：2 条记忆和0 个会话" in zh.get("/data/erase").content.decode()
