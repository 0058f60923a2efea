"""The command box on the page: the plan is shown, and nothing is deleted before "Yes, do it"."""

from __future__ import annotations

import re

from django.test import Client

from memories.models import Memory


def _login(membership, **headers) -> Client:
    client = Client(headers=headers)
    client.force_login(membership.user)
    return client


def test_delete_about_shows_the_plan_then_deletes_what_was_shown(world, make_memory):
    docs = make_memory(world.demo, "dispatch-docs needs a changelog entry", user_id="alice")
    other = make_memory(world.demo, "Prefers tables", user_id="alice")
    bobs = make_memory(world.demo, "dispatch-docs is Bob's too", user_id="bob")
    alice = _login(world.alice)
    page = alice.post("/commands/", {"text": "delete all memories about dispatch-docs"}).content.decode()
    assert 'data-intent="delete_about"' in page and "1 memory will be deleted" in page
    assert "dispatch-docs needs a changelog entry" in page and "Bob" not in page
    docs.refresh_from_db()
    assert docs.status == "active"
    ids = re.search(r'name="memory_ids" value="([^"]*)"', page).group(1)
    response = alice.post(
        "/commands/", {"text": "delete all memories about dispatch-docs", "confirm": "on", "memory_ids": ids}
    )
    assert response.status_code == 302
    assert dict(Memory.objects.values_list("id", "status")) == {
        docs.id: "deleted",
        other.id: "active",
        bobs.id: "active",
    }


def test_the_plan_is_in_the_pages_language(world, make_memory):
    make_memory(world.demo, "年度预算很紧", user_id="alice")
    alice = _login(world.alice, accept_language="zh-hans")
    page = alice.post("/commands/", {"text": "删除所有关于年度预算的记忆"}).content.decode()
    assert "将删除 1 条记忆" in page and "确定执行" in page


def test_unknown_and_empty_commands_help_instead_of_failing(world):
    alice = _login(world.alice)
    assert "Try one of the example commands" in alice.post("/commands/", {"text": "sing"}).content.decode()
    assert alice.post("/commands/", {"text": ""}).status_code == 400
    assert "忘掉我刚才说的项目" in alice.get("/commands/").content.decode()  # the examples


def test_list_shows_my_memories_only(world, make_memory):
    make_memory(world.demo, "Prefers tables", user_id="alice")
    make_memory(world.demo, "Bob likes TL;DR", user_id="bob")
    page = _login(world.alice).post("/commands/", {"text": "查看你记住了什么"}).content.decode()
    assert "Prefers tables" in page and "TL;DR" not in page
