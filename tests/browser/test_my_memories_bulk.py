"""My memories in a real browser, in English and Chinese: tick several memories and delete, pause or resume
them together (a plan naming each, Cancel, "yes"); sort the list; how much is remembered. The teammate
never sees alice's, and a forged selection of hers is refused with nothing changed."""

from __future__ import annotations

import re

import pytest
from my_memories_data import seed_alice  # tests/browser/, on sys.path under pytest
from playwright.sync_api import Page, expect
from test_zh_walk import COLLECT, problems  # the walk's own check: no raw code, no English-only label

from audit.models import AuditEvent
from memories.models import Memory

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "delete": "Delete selected",
        "pause": "Pause selected",
        "resume": "Resume selected",
        "all": "Select all shown",
        "selected": "Selected: 2",
        "delete_plan": "Delete 2 memories?",
        "yes_delete": "Yes, delete 2 memories",
        "cancel": "Cancel",
        "deleted": "Deleted 2 memories.",
        "pause_plan": "Pause 1 memory?",
        "left": "Left as it is: 1 memory",
        "yes_pause": "Yes, pause 1 memory",
        "paused": "Paused 1 memory.",
        "resume_plan": "Resume 2 memories?",
        "yes_resume": "Yes, resume 2 memories",
        "resumed": "Resumed 2 memories.",
        "refused": "Some of the selected memories are not yours or no longer exist. Nothing was changed.",
        "sort": "Sort by",
        "created": "Created",
        "apply": "Apply",
        "search": "Search",
        "footprint": "How much is remembered",
        "preference": "Preference",
        "tokens": "tokens (of a 1200-token budget)",
    },
    "zh": {
        "delete": "删除所选",
        "pause": "暂停所选",
        "resume": "恢复所选",
        "all": "全选当前显示的",
        "selected": "已选： 2",
        "delete_plan": "删除 2 条记忆？",
        "yes_delete": "是的，删除 2 条记忆",
        "cancel": "取消",
        "deleted": "已删除 2 条记忆。",
        "pause_plan": "暂停 1 条记忆？",
        "left": "保持不变：1 条记忆",
        "yes_pause": "是的，暂停 1 条记忆",
        "paused": "已暂停 1 条记忆。",
        "resume_plan": "恢复 2 条记忆？",
        "yes_resume": "是的，恢复 2 条记忆",
        "resumed": "已恢复 2 条记忆。",
        "refused": "所选记忆中有些不属于你或已不存在。没有做任何更改。",
        "sort": "排序",
        "created": "创建时间",
        "apply": "应用",
        "search": "搜索",
        "footprint": "记住了多少",
        "preference": "偏好",
        "tokens": "个 token（预算 1200 个 token）",
    },
}
LANGS = ["en", "zh"]


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def _open(page: Page, login, person: str, lang: str) -> None:
    login(page, person)
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")


def _tick(page: Page, *memories: Memory) -> None:
    for memory in memories:
        page.locator(f"#m-{memory.pk} input[data-select]").check()


def _statuses(*memories: Memory) -> list[str]:
    return [Memory.objects.get(pk=m.pk).status for m in memories]


@pytest.mark.parametrize("lang", LANGS)
def test_delete_several_shows_the_plan_cancels_then_deletes_on_yes(page, login, world, make_memory, lang, screenshot):
    words = WORDS[lang]
    memories = seed_alice(world)
    tables, profile = memories[1], memories[2]
    _open(page, login, "alice", lang)
    bar = page.get_by_test_id("bulk-bar")
    expect(bar.get_by_role("button", name=words["delete"])).to_be_disabled()  # nothing ticked yet
    assert not problems(page.evaluate(COLLECT), chinese=lang == "zh")  # the bar and the figures: labels
    _tick(page, tables, profile)
    expect(bar.locator("[data-bulk-count]")).to_have_text(words["selected"])
    bar.get_by_role("button", name=words["delete"]).click()

    plan = page.get_by_test_id("bulk-plan")
    expect(page.get_by_role("heading", level=1)).to_have_text(words["delete_plan"])
    expect(plan.get_by_test_id("bulk-changes").locator("li")).to_have_count(2)
    expect(plan).to_contain_text("Prefers Markdown tables when comparing options.")
    expect(plan).to_contain_text("Maintains the dispatch-docs documentation site")
    screenshot(page, f"bulk-delete-plan-{lang}")
    assert not problems(page.evaluate(COLLECT), chinese=lang == "zh")
    plan.get_by_role("link", name=words["cancel"]).click()
    expect(page.locator(f"#m-{tables.pk}")).to_be_visible()
    assert _statuses(tables, profile) == ["active", "active"]  # Cancel changed nothing

    _tick(page, tables, profile)
    page.get_by_test_id("bulk-bar").get_by_role("button", name=words["delete"]).click()
    page.get_by_role("button", name=words["yes_delete"]).click()
    expect(page.locator(".flash__item--success")).to_contain_text(words["deleted"])
    expect(page.locator(f"#m-{tables.pk}")).to_have_count(0)
    expect(page.locator(f"#m-{profile.pk}")).to_have_count(0)
    assert _statuses(tables, profile) == ["deleted", "deleted"]
    assert _statuses(*memories[3:]) == ["active"] * 3 and _statuses(memories[0]) == ["active"]
    deleted = AuditEvent.objects.filter(event="memory_deleted", actor="user:alice")
    assert sorted(str(e.memory_id) for e in deleted) == sorted([str(tables.pk), str(profile.pk)])


@pytest.mark.parametrize("lang", LANGS)
def test_a_teammate_sees_none_of_alices_and_a_forged_selection_changes_nothing(page, login, world, make_memory, lang):
    words = WORDS[lang]
    memories = seed_alice(world)
    make_memory(world.demo, "Bob likes a TL;DR line first.", user_id="bob")
    _open(page, login, "bob", lang)
    expect(page.get_by_text("Prefers Markdown tables")).to_have_count(0)
    expect(page.locator("input[data-select]")).to_have_count(1)
    # bob's one checkbox made to name alice's memory (as a hand-made request would): refused whole.
    page.evaluate(f"document.querySelector('input[data-select]').value = '{memories[1].pk}'")
    page.locator("input[data-select]").check()
    with page.expect_response(lambda r: r.url.endswith("/memories/bulk")) as info:
        page.get_by_test_id("bulk-bar").get_by_role("button", name=words["pause"]).click()
    assert info.value.status == 400
    expect(page.get_by_test_id("bulk-errors")).to_have_text(words["refused"])
    expect(page.get_by_text("Prefers Markdown tables")).to_have_count(0)
    assert _statuses(*memories) == ["active"] * 6

    page.context.clear_cookies()
    _open(page, login, "erin", lang)  # another tenant: an empty list, nothing of alice's anywhere
    expect(page.get_by_text("Prefers Markdown tables")).to_have_count(0)
    expect(page.locator("input[data-select]")).to_have_count(0)


@pytest.mark.parametrize("lang", LANGS)
def test_pause_and_resume_several_with_select_all_shown(page, login, world, lang):
    words = WORDS[lang]
    memories = seed_alice(world)
    chinese, tables = memories[0], memories[1]
    Memory.objects.filter(pk=chinese.pk).update(status="paused")
    _open(page, login, "alice", lang)
    # Narrow the cards as you type, then tick all of those shown: the one about Markdown.
    page.get_by_role("searchbox", name=words["search"]).fill("markdown")
    page.get_by_role("button", name=words["all"]).click()
    expect(page.locator("input[data-select]:checked")).to_have_count(1)
    expect(page.locator(f"#m-{tables.pk} input[data-select]")).to_be_checked()
    page.get_by_role("searchbox", name=words["search"]).fill("")
    _tick(page, chinese)
    page.get_by_test_id("bulk-bar").get_by_role("button", name=words["pause"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["pause_plan"])
    expect(page.get_by_test_id("bulk-unchanged")).to_contain_text("用户偏好中文")  # paused already: left as it is
    expect(page.get_by_test_id("bulk-plan")).to_contain_text(words["left"])
    page.get_by_role("button", name=words["yes_pause"]).click()
    expect(page.locator(".flash__item--success")).to_contain_text(words["paused"])
    assert _statuses(chinese, tables) == ["paused", "paused"]

    _tick(page, chinese, tables)
    page.get_by_test_id("bulk-bar").get_by_role("button", name=words["resume"]).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["resume_plan"])
    page.get_by_role("button", name=words["yes_resume"]).click()
    expect(page.locator(".flash__item--success")).to_contain_text(words["resumed"])
    assert _statuses(chinese, tables) == ["active", "active"]
    assert AuditEvent.objects.filter(event="memory_resumed", actor="user:alice").count() == 2


def _card_order(page: Page) -> list[str]:
    return page.locator("[data-group] article.memory").evaluate_all("cards => cards.map(c => c.dataset.memoryId)")


def _expect_order(page: Page, ids: list[str]) -> None:
    """Wait (the page reloads after Apply) until the cards among ``ids`` stand in that order."""
    page.wait_for_function(
        """ids => {
            const shown = [...document.querySelectorAll("[data-group] article.memory")].map(c => c.dataset.memoryId);
            return JSON.stringify(shown.filter(i => ids.includes(i))) === JSON.stringify(ids);
        }""",
        arg=ids,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_sort_is_kept_across_search_and_how_much_is_remembered(page, login, live_server, world, make_memory, lang):
    from datetime import timedelta

    from django.utils import timezone

    words = WORDS[lang]
    now = timezone.now()
    older, newer = (make_memory(world.demo, f"Prefers {what} answers", user_id="alice") for what in ("short", "calm"))
    Memory.objects.filter(pk=older.pk).update(created_at=now - timedelta(days=9), updated_at=now)
    Memory.objects.filter(pk=newer.pk).update(created_at=now - timedelta(days=1), updated_at=now - timedelta(days=5))
    make_memory(world.demo, "Backend engineer", user_id="alice", type="user_profile")
    make_memory(world.demo, "Bob prefers long answers", user_id="bob")
    _open(page, login, "alice", lang)
    prefs = [str(older.pk), str(newer.pk)]
    assert [i for i in _card_order(page) if i in prefs] == prefs  # last changed first: the default

    page.get_by_label(words["sort"]).select_option("created")
    page.get_by_role("button", name=words["apply"]).click()
    _expect_order(page, prefs[::-1])
    page.get_by_role("searchbox", name=words["search"]).fill("answers")
    page.get_by_role("button", name=words["apply"]).click()
    expect(page.locator("[data-group] article.memory")).to_have_count(2)  # the search's result: the profile is gone
    expect(page.get_by_label(words["sort"])).to_have_value("created")  # kept across the search
    _expect_order(page, prefs[::-1])
    assert _card_order(page) == prefs[::-1]
    assert "answers" not in page.url

    # How much is remembered: per type, and the tokens of what the agent's own read gives it.
    footprint = page.get_by_test_id("footprint")
    expect(footprint.get_by_role("heading")).to_have_text(words["footprint"])
    expect(footprint.locator('[data-type="user_preference"] [data-count]')).to_have_text("2")
    expect(footprint.locator('[data-type="user_profile"] [data-count]')).to_have_text("1")
    expect(footprint.locator("[data-type]")).to_have_count(2)
    expect(footprint.locator('[data-type="user_preference"]')).to_contain_text(words["preference"])
    read = page.request.post(
        f"{live_server.url}/api/v1/memories/context",
        headers={"Authorization": f"Bearer {world.demo_key}"},
        data={"scope": {"user_id": "alice"}, "language": lang},  # the page prices in its own language
    ).json()
    cost = footprint.get_by_test_id("token-cost").inner_text()
    assert re.search(rf"\b{read['token_count']}\s*{re.escape(words['tokens'])}", cost), (cost, read["token_count"])

    page.context.clear_cookies()
    _open(page, login, "bob", lang)  # the teammate's page counts his own only
    expect(page.get_by_test_id("footprint").locator('[data-type="user_preference"] [data-count]')).to_have_text("1")
    expect(page.get_by_text("Prefers short answers")).to_have_count(0)
