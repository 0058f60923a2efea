"""The list's bulk bar: tick memories → a plan naming each → "yes" → each changed, audited one by one.

(Other people's ids and malformed input: test_pages_bad_input.py.)
"""

from __future__ import annotations

import re

from bad_input import logged_in, page_text
from django.test import Client

from audit.models import AuditEvent
from memories.models import Memory
from memories.services.records import memory_delete, memory_pause


def _state() -> list:
    return [*sorted(Memory.objects.values_list("pk", "status", "updated_at")), AuditEvent.objects.count()]


def _statuses(*memories: Memory) -> list[str]:
    return [Memory.objects.get(pk=m.pk).status for m in memories]


def _plan_ids(page: str, testid: str) -> list[str]:
    part = page.split(f'data-testid="{testid}"', 1)[1].split("</ol>" if testid == "bulk-changes" else "</ul>", 1)[0]
    return re.findall(r'data-memory-id="([0-9a-f-]+)"', part)


def test_every_card_has_a_checkbox_for_the_bulk_bar(world, make_memory):
    memories = [make_memory(world.demo, f"Note {n}", user_id="alice") for n in range(3)]
    page = page_text(logged_in(world.alice).get("/"))
    assert 'id="bulk"' in page and 'action="/memories/bulk"' in page
    ticked = re.findall(r'<input type="checkbox" name="ids" value="([0-9a-f-]+)" form="bulk"', page)
    assert sorted(ticked) == sorted(str(m.pk) for m in memories)


def test_the_plan_names_each_memory_and_changes_nothing(world, make_memory):
    one = make_memory(world.demo, "Prefers tables for comparisons", user_id="alice")
    two = make_memory(world.demo, "Answers in Chinese", user_id="alice")
    alice = logged_in(world.alice)
    before = _state()
    response = alice.post("/memories/bulk", {"action": "delete", "ids": [str(one.pk), str(two.pk)]})
    assert response.status_code == 200
    page = page_text(response)
    assert "Delete 2 memories?" in page and "Prefers tables for comparisons" in page and "Answers in Chinese" in page
    assert _plan_ids(page, "bulk-changes") == [str(one.pk), str(two.pk)]
    assert "Yes, delete 2 memories" in page and ">Cancel</a>" in page
    assert _state() == before  # a plan is only a plan


def test_yes_deletes_each_named_memory_with_one_event_apiece(world, make_memory):
    one = make_memory(world.demo, "Prefers tables", user_id="alice")
    two = make_memory(world.demo, "Answers in Chinese", user_id="alice")
    keep = make_memory(world.demo, "Short answers", user_id="alice")
    ids = [str(one.pk), str(two.pk)]
    response = logged_in(world.alice).post(
        "/memories/bulk", {"action": "delete", "ids": ids, "changes": ids, "confirm": "on", "sort": "created"}
    )
    assert (response.status_code, response["Location"]) == (302, "/?sort=created")
    assert _statuses(one, two, keep) == ["deleted", "deleted", "active"]
    deleted = AuditEvent.objects.filter(event="memory_deleted", actor="user:alice")
    assert sorted(str(e.memory_id) for e in deleted) == sorted(ids)
    recently = page_text(logged_in(world.alice).get("/deleted/"))  # restorable, as a one-memory delete is
    assert "Prefers tables" in recently and "Answers in Chinese" in recently and "Short answers" not in recently


def test_pausing_leaves_what_is_paused_already_and_says_so(world, make_memory):
    active = make_memory(world.demo, "Prefers tables", user_id="alice")
    paused = memory_pause(memory=make_memory(world.demo, "Answers in Chinese", user_id="alice"), actor="test")
    alice = logged_in(world.alice)
    page = page_text(alice.post("/memories/bulk", {"action": "pause", "ids": [str(active.pk), str(paused.pk)]}))
    assert "Pause 1 memory?" in page and "Left as it is: 1 memory" in page
    assert _plan_ids(page, "bulk-changes") == [str(active.pk)]
    assert _plan_ids(page, "bulk-unchanged") == [str(paused.pk)]
    ids = [str(active.pk), str(paused.pk)]
    response = alice.post(
        "/memories/bulk", {"action": "pause", "ids": ids, "changes": [str(active.pk)], "confirm": "on"}
    )
    assert response.status_code == 302
    assert _statuses(active, paused) == ["paused", "paused"]
    assert AuditEvent.objects.filter(event="memory_paused", actor="user:alice").count() == 1
    page = page_text(alice.post("/memories/bulk", {"action": "resume", "ids": ids, "changes": ids, "confirm": "on"}))
    assert _statuses(active, paused) == ["active", "active"]
    assert AuditEvent.objects.filter(event="memory_resumed", actor="user:alice").count() == 2


def test_yes_to_a_plan_that_no_longer_holds_changes_nothing(world, make_memory):
    """Between the plan and "yes" one memory was paused in another tab: the plan shown is no longer what
    would happen, so nothing changes and the new plan is shown (409)."""
    one = make_memory(world.demo, "Prefers tables", user_id="alice")
    two = make_memory(world.demo, "Answers in Chinese", user_id="alice")
    ids = [str(one.pk), str(two.pk)]
    memory_pause(memory=two, actor="test")
    before = _state()
    response = logged_in(world.alice).post(
        "/memories/bulk", {"action": "pause", "ids": ids, "changes": ids, "confirm": "on"}
    )
    assert response.status_code == 409
    page = page_text(response)
    assert "changed since you looked" in page and _plan_ids(page, "bulk-changes") == [str(one.pk)]
    assert _state() == before


def test_nothing_to_change_offers_no_yes(world, make_memory):
    active = make_memory(world.demo, "Prefers tables", user_id="alice")
    alice = logged_in(world.alice)
    page = page_text(alice.post("/memories/bulk", {"action": "resume", "ids": [str(active.pk)]}))
    assert "None of the selected memories would change." in page and "Yes, resume" not in page
    response = alice.post("/memories/bulk", {"action": "resume", "ids": [str(active.pk)], "confirm": "on"})
    assert response.status_code == 302 and _statuses(active) == ["active"]


def test_archived_and_expired_memories_can_be_deleted_together(world, make_memory):
    from memories.services.records import memory_archive, memory_expire

    archived = memory_archive(memory=make_memory(world.demo, "Old", user_id="alice"), actor="test")
    expired = memory_expire(memory=make_memory(world.demo, "Older", user_id="alice"), actor="test")
    ids = [str(archived.pk), str(expired.pk)]
    response = logged_in(world.alice).post(
        "/memories/bulk", {"action": "delete", "ids": ids, "changes": ids, "confirm": "on"}
    )
    assert response.status_code == 302 and _statuses(archived, expired) == ["deleted", "deleted"]


def test_the_plan_and_the_result_are_translated(world, make_memory):
    one = make_memory(world.demo, "Prefers tables", user_id="alice")
    client = Client(headers={"accept-language": "zh-hans"})
    client.force_login(world.alice.user)
    page = page_text(client.post("/memories/bulk", {"action": "delete", "ids": [str(one.pk)]}))
    for text in ("删除 1 条记忆？", "将要更改的内容", "是的，删除 1 条记忆", "取消"):
        assert text in page
    response = client.post(
        "/memories/bulk",
        {"action": "delete", "ids": [str(one.pk)], "changes": [str(one.pk)], "confirm": "on"},
        follow=True,
    )
    assert "已删除 1 条记忆" in page_text(response)


def test_a_deleted_memory_is_gone_for_the_bar_too(world, make_memory):
    gone = make_memory(world.demo, "Gone", user_id="alice")
    memory_delete(memory=gone, actor="test")
    page = page_text(logged_in(world.alice).get("/"))
    assert str(gone.pk) not in page
