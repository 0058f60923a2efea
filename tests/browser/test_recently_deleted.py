"""Recently deleted, in a real browser, in English and Chinese: delete, find it, restore it; and the
teammate who must not see it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from memories.models import Memory

pytestmark = pytest.mark.browser


def test_delete_then_restore_from_recently_deleted(page, login, world, make_memory, screenshot):
    memory = make_memory(world.demo, "Prefers answers with a summary first", user_id="alice")
    login(page, "alice")
    page.goto(f"/memories/{memory.pk}/delete")
    page.get_by_role("button", name="Delete").click()
    expect(page.locator(".flash__item--success")).to_contain_text("Deleted")
    page.get_by_role("link", name="Recently deleted").click()
    row = page.locator(f'[data-deleted="{memory.pk}"]')
    expect(row).to_contain_text("Prefers answers with a summary first")
    screenshot(page, "recently-deleted")
    row.get_by_role("button", name="Restore").click()
    expect(page.get_by_text("Restored. Agents may use this memory again.")).to_be_visible()
    assert Memory.objects.get(pk=memory.pk).status == "active"


def test_in_chinese_and_not_for_the_teammate(page, login, world, make_memory):
    memory = make_memory(world.demo, "喜欢先看结论", user_id="alice")
    from memories.services.records import memory_delete

    memory_delete(memory=memory, actor="user:alice")
    login(page, "bob")
    page.goto("/deleted/")
    expect(page.locator(f'[data-deleted="{memory.pk}"]')).to_have_count(0)
    page.get_by_role("button", name="简体中文").click()
    expect(page.get_by_role("heading", name="最近删除", level=1)).to_be_visible()
    page.context.clear_cookies()
    login(page, "alice")
    page.goto("/deleted/")
    page.get_by_role("button", name="简体中文").click()
    expect(page.get_by_role("heading", name="最近删除", level=1)).to_be_visible()
    row = page.locator(f'[data-deleted="{memory.pk}"]')
    expect(row).to_contain_text("喜欢先看结论")
    row.get_by_role("button", name="恢复").click()
    expect(page.get_by_text("已恢复。智能体可以再次使用这条记忆。")).to_be_visible()
    assert Memory.objects.get(pk=memory.pk).status == "active"
