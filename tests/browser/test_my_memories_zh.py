"""'My memories' in a real browser, in Chinese: the language switch, commands, the inbox, export and erasure."""

from __future__ import annotations

import json

import pytest
from my_memories_data import agent_context, seed_alice  # tests/browser/, on sys.path under pytest
from playwright.sync_api import expect

from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType
from memories.models import Memory
from memories.services.write import memory_write
from vault.models import DataKey

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def switch_to_chinese(page) -> None:
    page.get_by_role("button", name="简体中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")


def test_language_switch_list_and_commands_in_chinese(page, login, live_server, world, make_memory, screenshot):
    memories = seed_alice(world)
    bobs = make_memory(world.demo, "dispatch-docs is Bob's project too", user_id="bob")
    login(page, "alice")
    switch_to_chinese(page)
    expect(page.get_by_role("heading", name="我的记忆", level=1)).to_be_visible()
    for group in ("偏好", "个人资料", "项目与规则", "当前任务与临时记忆"):
        expect(page.get_by_role("heading", name=group, level=2)).to_be_visible()
    expect(page.get_by_text("你要求记住这条内容。").first).to_be_visible()
    expect(page.get_by_role("button", name="简体中文")).to_have_attribute("aria-pressed", "true")
    page.set_viewport_size({"width": 1280, "height": 1400})
    screenshot(page, "my-memories-zh")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: one column, nothing cut off sideways
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "my-memories-zh-mobile")
    page.set_viewport_size({"width": 1280, "height": 900})

    # "查看你记住了什么": read-only, shows the active memories.
    page.get_by_role("link", name="命令").click()
    expect(page).to_have_url(f"{live_server.url}/commands/")  # the list page has a command box of the same name
    page.get_by_label("告诉 memgov 要做什么").fill("查看你记住了什么")
    page.get_by_role("button", name="执行").click()
    expect(page.get_by_test_id("plan")).to_contain_text("共有 6 条记忆正在使用")

    # "删除所有关于 X 的记忆": the plan first, nothing deleted until "确定执行".
    page.get_by_label("告诉 memgov 要做什么").fill("删除所有关于 dispatch-docs 的记忆")
    page.get_by_role("button", name="执行").click()
    plan = page.get_by_test_id("plan")
    expect(plan).to_contain_text("将删除 2 条记忆。此操作无法撤销。")
    expect(plan).not_to_contain_text("Bob")
    screenshot(page, "commands-zh")
    assert Memory.objects.filter(project="dispatch-docs", status="active").exists()
    page.get_by_role("button", name="确定执行").click()
    expect(page.locator(".flash__item--success")).to_contain_text("已删除 2 条记忆。")
    profile, rule = memories[2], memories[3]
    assert set(Memory.objects.filter(pk__in=[profile.pk, rule.pk]).values_list("status", flat=True)) == {"deleted"}
    bobs.refresh_from_db()
    assert bobs.status == "active"
    assert "dispatch-docs" not in agent_context(page, live_server, world.demo_key, "dispatch-docs")["rendered"]

    # "以后不要根据这个偏好回答": the plan names the preference; it is paused only on "确定执行".
    page.goto(f"{live_server.url}/commands/")
    page.get_by_label("告诉 memgov 要做什么").fill("以后不要根据“检查清单”这个偏好回答")
    page.get_by_role("button", name="执行").click()
    expect(page.get_by_test_id("plan").locator(f"#m-{memories[0].id}")).to_be_visible()
    page.get_by_role("button", name="确定执行").click()
    expect(page.locator(".flash__item--success")).to_contain_text("已暂停 1 条记忆。")
    expect(page.locator(f"#m-{memories[0].id} .status")).to_have_text("已暂停")


def test_inbox_export_and_erase_in_chinese(page, login, live_server, world, make_memory, screenshot):
    seed_alice(world)
    bobs = make_memory(world.demo, "Bob likes TL;DR", user_id="bob")
    pending = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content="喜欢先给结论再给细节。",
            scope=Scope(Level.USER, user_id="alice"),
            source_type=SourceType.AGENT_INFERENCE,
            type=MemoryType.USER_PREFERENCE,
            confidence=0.8,
            source_message_id="msg-zh-1",
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
    )
    login(page, "alice")
    switch_to_chinese(page)

    # The inbox: the badge, what/why/where from, accept.
    expect(page.get_by_test_id("pending-badge")).to_contain_text("1")
    page.get_by_test_id("nav-inbox").click()
    card = page.locator(f"[data-confirmation-id='{pending.confirmation.id}']")
    expect(card).to_contain_text("喜欢先给结论再给细节。")
    expect(card).to_contain_text("只有你确认后才会保存")
    expect(card).to_contain_text("msg-zh-1")
    screenshot(page, "inbox-zh")
    card.get_by_role("button", name="接受").click()
    expect(page.get_by_text("没有等你确认的内容。")).to_be_visible()
    assert str(pending.memory.id) in {
        i["id"] for i in agent_context(page, live_server, world.demo_key, "结论")["items"]
    }

    # Export: a JSON download with my memories and their history.
    page.get_by_role("link", name="我的数据").click()
    with page.expect_download() as download_info:
        page.get_by_role("button", name="下载我的数据（JSON）").click()
    document = json.loads(download_info.value.path().read_text(encoding="utf-8"))
    assert document["user_id"] == "alice" and len(document["memories"]) == 7
    assert "Bob likes" not in json.dumps(document, ensure_ascii=False)

    # Erase: a wrong phrase erases nothing; the right one shreds the key and shows a receipt.
    page.get_by_role("link", name="全部删除…").click()
    page.locator("#id_phrase").fill("删除")
    page.get_by_role("button", name="全部删除").click()
    expect(page.locator(".error-summary")).to_contain_text("短语不一致")
    assert Memory.objects.filter(user_id="alice", tenant=world.demo).count() == 7
    page.locator("#id_phrase").fill("删除我的全部记忆")
    page.get_by_role("button", name="全部删除").click()
    expect(page.get_by_role("heading", name="删除回执")).to_be_visible()
    expect(page.get_by_test_id("memories-erased")).to_have_text("7")
    screenshot(page, "erase-receipt-zh")
    assert not Memory.objects.filter(user_id="alice", tenant=world.demo).exists()
    assert not DataKey.objects.filter(tenant_id=world.demo.pk, owner="alice").exists()
    assert agent_context(page, live_server, world.demo_key, "结论")["items"] == []
    bobs.refresh_from_db()
    assert bobs.content == "Bob likes TL;DR"
