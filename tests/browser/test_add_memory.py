"""Add a memory on My memories: the person's explicit request through the write pipeline, its decision
shown — saved with its reason, or refused and why with nothing saved — in English and Chinese; a teammate
never sees it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from memories.models import Memory

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


@pytest.mark.parametrize(
    ("lang", "add", "remember", "saved", "why", "refused"),
    [
        ("en", "Add a memory", "Remember this", "Remembered.", "You asked for this to be remembered.",
         "Not remembered"),
        ("zh", "添加一条记忆", "记住这个", "已记住。", "你要求记住这条内容。", "没有记住"),
    ],
)  # fmt: skip
def test_add_a_memory_shows_the_decision(page, login, world, lang, add, remember, saved, why, refused):
    login(page, "alice")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    panel = page.get_by_test_id("add-memory")
    panel.locator("summary").click()
    panel.locator("#id_add-content").fill("Prefers meeting notes as bullet points.")
    panel.get_by_role("button", name=remember).click()
    expect(page.locator(".flash__item--success")).to_contain_text(saved)
    memory = Memory.objects.get(user_id="alice", status="active")
    assert memory.source_type == "explicit_user_request" and memory.reason_code == "explicit_request"
    expect(page.locator(f"#m-{memory.pk} [data-why]")).to_contain_text(why)

    page.get_by_test_id("add-memory").locator("summary").click()
    page.locator("#id_add-content").fill("My password is hunter2-Secret!")
    page.get_by_test_id("add-memory").get_by_role("button", name=remember).click()
    expect(page.locator(".flash__item--warning")).to_contain_text(refused)
    assert Memory.objects.filter(user_id="alice").count() == 1  # nothing saved

    page.context.clear_cookies()
    login(page, "bob")
    expect(page.get_by_text("Prefers meeting notes as bullet points.")).to_have_count(0)


def test_an_empty_memory_is_refused_by_name(page, login, world):
    login(page, "alice")
    page.get_by_test_id("add-memory").locator("summary").click()
    page.locator("#id_add-content").fill("   ")
    page.evaluate("document.querySelector('#id_add-content').removeAttribute('required')")
    with page.expect_response(lambda r: r.url.endswith("/memories/add")) as info:
        page.get_by_test_id("add-memory").get_by_role("button", name="Remember this").click()
    assert info.value.status == 400
    expect(page.get_by_test_id("add-memory").locator(".field__error")).to_be_visible()
    assert not Memory.objects.filter(user_id="alice").exists()
