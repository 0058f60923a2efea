"""'My memories' in a real browser (English): list, search, edit, history, delete, pause, inbox, access.

Each test drives several flows to keep the browser suite short; screenshots land in test-artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from my_memories_data import (  # tests/browser/, on sys.path under pytest
    agent_context,
    agent_session,
    agent_write,
    seed_alice,
)
from playwright.sync_api import Page, expect

from memories.models import Memory

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def screenshot_viewport(page: Page, name: str) -> Path:
    """The visible part only (what the README shows), next to the full-page artifacts."""
    path = ROOT / "test-artifacts" / f"{name}.png"
    path.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(path), full_page=False)
    return path


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    """Build the sensitivity detector (seconds) once, before a click waits on it."""
    from governance.recognizers import warm_up

    warm_up()


def test_list_search_xss_edit_history_and_rollback(
    page, login, live_server, world, make_memory, screenshot, docs_screenshot
):
    seed_alice(world)
    xss = make_memory(world.demo, '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">',
                      user_id="alice")  # fmt: skip
    make_memory(world.demo, "Bob likes a TL;DR line first.", user_id="bob")
    agent_write(
        page,
        live_server,
        world.demo_key,
        "Prefers answers that start with a one-line summary.",
        source={"source_type": "agent_inference", "source_message_id": "msg-314"},
        confidence=0.8,
    )
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    login(page, "alice")

    # The list, grouped as §18.1, with why / from / expiry — and the teammate's memory nowhere.
    expect(page.get_by_role("heading", name="My memories", level=1)).to_be_visible()
    for group in ("Preferences", "Profile", "Projects and rules", "Current tasks and temporary"):
        expect(page.get_by_role("heading", name=group, level=2)).to_be_visible()
    expect(page.get_by_text("Prefers Markdown tables when comparing options.")).to_be_visible()
    expect(page.get_by_text("You asked for this to be remembered.").first).to_be_visible()
    expect(page.get_by_text("via demo-agent").first).to_be_visible()
    expect(page.get_by_text("Bob likes")).to_have_count(0)
    expect(page.get_by_test_id("pending-badge")).to_contain_text("1")

    # XSS content is shown as text and never runs.
    card = page.locator(f"#m-{xss.id}")
    expect(card.locator(".memory__content")).to_contain_text("<script>window.__xss = 1</script>")
    assert card.locator("script, img").count() == 0
    assert page.evaluate("window.__xss") is None and dialogs == []

    # Keyboard: the first Tab reaches the skip link.
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    page.locator(f"#m-{xss.id}").get_by_role("link", name="Delete").click()
    page.get_by_role("button", name="Delete memory").click()
    expect(page.locator(".flash__item--success")).to_contain_text("Deleted")
    page.goto(f"{live_server.url}/")
    page.set_viewport_size({"width": 1280, "height": 1400})
    screenshot(page, "my-memories-en")
    screenshot_viewport(page, "my-memories-en-viewport")
    docs_screenshot(page, "my-memories")

    # Search (server-side, on decrypted text).
    page.get_by_role("searchbox", name="Search").fill("markdown TABLES")
    expect(page.locator("article.memory:visible")).to_have_count(1)  # narrowed as you type (JS)
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("article.memory")).to_have_count(1)
    expect(page.locator("[data-result-count]")).to_contain_text("1 memory matches.")
    assert "markdown" not in page.url.lower()

    # Edit → a new version; a password is refused with a clear message.
    page.locator("article.memory").get_by_role("link", name="Edit").click()
    page.get_by_label("What should be remembered").fill("my password is Hunter2-Secret!")
    page.get_by_role("button", name="Save new version").click()
    expect(page.locator(".field__error")).to_contain_text("never stored")
    page.get_by_label("What should be remembered").fill("Prefers bullet lists when comparing options.")
    page.get_by_role("button", name="Save new version").click()
    expect(page.get_by_text("Prefers bullet lists when comparing options.")).to_be_visible()

    # History and rollback.
    page.get_by_text("Prefers bullet lists when comparing options.").locator("xpath=..").get_by_role(
        "link", name="History"
    ).click()
    expect(page.locator(".timeline__item")).to_have_count(2)
    screenshot(page, "history-en")
    page.get_by_role("button", name="Restore version 1").click()
    expect(page.locator(".timeline__item")).to_have_count(3)
    expect(page.locator(".timeline__item--current .memory__content")).to_have_text(
        "Prefers Markdown tables when comparing options."
    )


def test_a_teammate_and_another_tenant_cannot_see_alices_memory(page, login, live_server, world):
    memories = seed_alice(world)
    login(page, "bob")
    expect(page.get_by_text("Nothing is remembered about you.")).to_be_visible()
    for path in (f"/memories/{memories[0].id}/edit", f"/memories/{memories[0].id}/history"):
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 404
    page.context.clear_cookies()
    login(page, "erin")
    expect(page.get_by_text("Prefers Markdown tables")).to_have_count(0)
    assert page.goto(f"{live_server.url}/memories/{memories[1].id}/delete").status == 404


def test_delete_pause_and_the_agents_context(page, login, live_server, world, screenshot):
    memories = seed_alice(world)
    tables = memories[1]
    before = agent_context(page, live_server, world.demo_key, "compare options in a table")
    assert str(tables.id) in {item["id"] for item in before["items"]}
    login(page, "alice")

    # Pause one memory: the agent stops seeing it; resume brings it back.
    card = page.locator(f"#m-{tables.id}")
    card.get_by_role("button", name="Pause").click()
    expect(page.locator(f"#m-{tables.id} .status")).to_have_text("Paused")
    assert str(tables.id) not in {i["id"] for i in agent_context(page, live_server, world.demo_key, "table")["items"]}
    page.locator(f"#m-{tables.id}").get_by_role("button", name="Resume").click()
    expect(page.locator(f"#m-{tables.id} .status")).to_have_text("In use")

    # Delete (with a confirmation page): gone from the agent's context at once.
    page.locator(f"#m-{tables.id}").get_by_role("link", name="Delete").click()
    expect(page.get_by_role("heading", name="Delete this memory?")).to_be_visible()
    page.get_by_role("button", name="Delete memory").click()
    expect(page.locator(".flash__item--success")).to_contain_text("Deleted")
    expect(page.locator(f"#m-{tables.id}")).to_have_count(0)
    after = agent_context(page, live_server, world.demo_key, "compare options in a table")
    assert str(tables.id) not in {item["id"] for item in after["items"]}
    assert "Markdown tables" not in after["rendered"]

    # What would the agent see? The same read path, as a preview.
    page.get_by_role("link", name="What the agent sees").click()
    page.get_by_label("What you might ask the agent").fill("写文档时要注意什么")
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_test_id("context-block")).to_contain_text("用户偏好中文")
    expect(page.get_by_test_id("context-block")).not_to_contain_text("Markdown tables")
    # Each line says why it is there: the standing preference is sent whatever the question.
    expect(page.get_by_test_id("why-ranked")).to_contain_text("sent with every question")
    screenshot(page, "preview-en")


def test_pause_all_sessions_and_the_write_pipeline(page, login, live_server, world, screenshot):
    seed_alice(world)
    login(page, "alice")
    page.get_by_role("link", name="Pause and sessions").click()
    page.get_by_role("button", name="Pause all memory").click()
    expect(page.get_by_test_id("paused-banner")).to_be_visible()
    rejected = agent_write(page, live_server, world.demo_key, "Prefers YAML over JSON")
    assert (rejected["decision"], rejected["reason_code"]) == ("reject", "user_paused")
    assert agent_context(page, live_server, world.demo_key, "options")["items"] == []
    screenshot(page, "controls-en")
    page.get_by_role("button", name="Resume memory").click()
    expect(page.get_by_test_id("paused-banner")).to_have_count(0)
    assert agent_write(page, live_server, world.demo_key, "Prefers YAML over JSON")["decision"] == "save"

    # The "temporary" switch on a listed session, then an agent write for it is rejected.
    session = agent_session(page, live_server, world.demo_key, title="Offsite logistics", messages=["Book rooms"])
    page.reload()
    row = page.locator(f'tr[data-session="{session["id"]}"]')
    expect(row).to_contain_text("Offsite logistics")
    row.get_by_role("switch").click()
    expect(page.get_by_test_id("opt-outs")).to_contain_text("Offsite logistics")
    expect(page.locator(f'tr[data-session="{session["id"]}"]').get_by_role("switch")).to_have_attribute(
        "aria-checked", "true"
    )
    opted_out = agent_write(
        page,
        live_server,
        world.demo_key,
        "We are discussing the offsite.",
        type="temporary_context",
        scope={"level": "session", "user_id": "alice", "session_id": session["id"]},
        source={"source_type": "user_statement"},
    )
    assert opted_out["reason_code"] == "session_opt_out"

    # Clear a session memgov keeps no history for (its id comes from a memory): see what goes, confirm, gone.
    page.locator('li[data-session="sess-demo-1"]').get_by_role("button", name="Clear").click()
    expect(page.get_by_text("This session is about the annual offsite budget.")).to_be_visible()
    page.get_by_role("button", name="Delete these memories").click()
    expect(page.locator(".flash__item--success")).to_contain_text("1 memory of the session deleted.")
    assert not Memory.objects.filter(session_id="sess-demo-1", status="active").exists()


def test_pending_confirmation_accept_then_injected(page, login, live_server, world, screenshot):
    seed_alice(world)
    inferred = agent_write(
        page,
        live_server,
        world.demo_key,
        "Prefers answers that start with a one-line summary.",
        source={"source_type": "agent_inference", "source_message_id": "msg-314"},
        confidence=0.8,
    )
    declined = agent_write(
        page,
        live_server,
        world.demo_key,
        "Seems to like emoji in answers.",
        source={"source_type": "agent_inference", "source_message_id": "msg-315"},
        confidence=0.7,
    )
    assert inferred["decision"] == declined["decision"] == "ask_confirmation"
    login(page, "alice")
    expect(page.get_by_test_id("pending-badge")).to_contain_text("2")
    page.get_by_test_id("nav-inbox").click()
    card = page.locator(f"[data-confirmation-id='{inferred['confirmation_id']}']")
    expect(card).to_contain_text("Prefers answers that start with a one-line summary.")
    expect(card).to_contain_text("it is kept only if you confirm")
    expect(card).to_contain_text("msg-314")
    expect(card).to_contain_text("demo-agent")
    screenshot(page, "inbox-en")
    assert "one-line summary" not in agent_context(page, live_server, world.demo_key, "summary")["rendered"]
    card.get_by_role("button", name="Accept").click()
    expect(page.get_by_test_id("pending-badge")).to_contain_text("1")
    page.locator(f"[data-confirmation-id='{declined['confirmation_id']}']").get_by_role(
        "button", name="Decline"
    ).click()
    expect(page.get_by_test_id("pending-badge")).to_have_count(0)
    expect(page.get_by_text("Nothing is waiting for you.")).to_be_visible()
    context = agent_context(page, live_server, world.demo_key, "start answers with a summary")
    assert inferred["memory_id"] in {item["id"] for item in context["items"]}
    assert "emoji" not in context["rendered"]


@pytest.mark.parametrize(
    ("lang", "confirmed_why", "confirmed_from", "asked"),
    [
        ("en", "You confirmed it on", "confirmed by you", "it is kept only if you confirm"),
        ("zh", "你在", "由你确认", "只有你确认后才会保存"),
    ],
)
def test_after_accepting_why_and_from_say_who_confirmed_and_when(
    page, login, live_server, world, lang, confirmed_why, confirmed_from, asked
):
    inferred = agent_write(
        page,
        live_server,
        world.demo_key,
        "Prefers answers that start with a one-line summary.",
        source={"source_type": "agent_inference", "source_message_id": "msg-314"},
        confidence=0.8,
    )
    login(page, "alice")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
    card = page.locator(f"#m-{inferred['memory_id']}")
    expect(card.locator("[data-why]")).to_contain_text(asked)  # still waiting: the request's reason
    page.get_by_test_id("nav-inbox").click()
    page.locator(f"[data-confirmation-id='{inferred['confirmation_id']}']").locator("button").first.click()
    expect(page.get_by_test_id("pending-badge")).to_have_count(0)  # accepted: nothing waits any more
    page.goto(f"{live_server.url}/")
    card = page.locator(f"#m-{inferred['memory_id']}")
    expect(card.locator("[data-why]")).to_contain_text(confirmed_why)
    expect(card.locator("[data-why]")).not_to_contain_text(asked)
    expect(card.locator("[data-from]")).to_contain_text(confirmed_from)
    # bob, who confirmed nothing, sees neither the memory nor who confirmed it
    page.context.clear_cookies()
    login(page, "bob")
    expect(page.locator(f"#m-{inferred['memory_id']}")).to_have_count(0)
