"""Cards say when a memory last changed; the console overview says how many rules wait; the breadcrumb
names the tenant once — in both languages; the compliance officer sees no admin count."""

from __future__ import annotations

import pytest
from my_memories_data import seed_alice  # tests/browser/, on sys.path under pytest
from playwright.sync_api import expect

from governance.vocabulary import Level, MemoryType
from memories.services.rules import rule_propose

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


@pytest.mark.parametrize(
    ("lang", "changed", "waiting"),
    [("en", "last changed", "1 rule waits for approval."), ("zh", "最后修改", "1 条规则等待批准。")],
)
def test_last_changed_rules_waiting_and_breadcrumb(page, login, world, lang, changed, waiting):
    memory = seed_alice(world)[1]
    rule_propose(tenant_id=world.demo.pk, proposer=world.carol, content="Commit messages are in English.",
                 type=MemoryType.ORGANIZATION_RULE, level=Level.TENANT)  # fmt: skip
    login(page, "alice")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    card = page.locator(f"#m-{memory.pk}")
    expect(card.locator("[data-changed]")).to_have_count(0)  # never changed: only when it was written
    page.goto(f"/memories/{memory.pk}/edit")
    page.locator("#id_content").fill("Prefers Markdown tables when comparing three or more options.")
    page.locator("main form.stack button[type=submit]").click()
    expect(page.locator(f"#m-{memory.pk} [data-changed]")).to_contain_text(changed)

    page.context.clear_cookies()
    login(page, "carol")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    page.goto("/console/")
    expect(page.get_by_test_id("rules-waiting-text")).to_have_text(waiting)
    expect(page.get_by_test_id("breadcrumb")).not_to_contain_text("(demo)")

    page.context.clear_cookies()
    login(page, "dave")
    page.goto("/console/")
    expect(page.get_by_test_id("rules-waiting-text")).to_have_count(0)
