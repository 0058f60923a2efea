"""Provenance on "My memories", in a real browser: a memory learned from a conversation links to that
conversation and says how many answers used it; the link is only ever to the person's own session, and
the teammate neither sees the card nor opens the session."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conversations.extraction.run import extract_run
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import SessionChange, session_create, session_update
from memories.models import Memory

pytestmark = pytest.mark.browser


@pytest.fixture
def learned(world):
    from governance.recognizers import warm_up

    warm_up()
    session = session_create(tenant_id=world.demo.pk, user_id="alice", app="chat", actor="test")
    session_events_append(
        tenant_id=world.demo.pk,
        session_id=session.pk,
        events=[NewEvent(kind="user_message", content="Remember: I prefer answers with a summary first.")],
        actor="test",
    )
    session_update(tenant_id=world.demo.pk, session_id=session.pk, change=SessionChange(state="ended"), actor="t")
    extract_run(tenant_id=world.demo.pk)
    memory = Memory.objects.get(user_id="alice")
    Memory.objects.filter(pk=memory.pk).update(cited_count=3)
    return session, memory


def test_a_learned_memory_links_to_its_conversation_and_counts_its_answers(
    page, login, live_server, world, learned, screenshot
):
    session, memory = learned
    login(page, "alice")
    page.goto("/")
    card = page.locator(f'[data-memory-id="{memory.pk}"]')
    expect(card).to_contain_text("summary first")
    expect(card.locator("[data-cited]")).to_have_text("used in 3 answers")
    link = card.get_by_role("link", name="learned from your conversation on")
    expect(link).to_have_attribute("href", f"/sessions/{session.pk}/")
    screenshot(page, "memory-provenance")
    link.click()
    expect(page).to_have_url(f"{live_server.url}/sessions/{session.pk}/")
    expect(page.get_by_text("summary first")).to_be_visible()


def test_the_teammate_sees_neither_the_card_nor_the_conversation(page, login, world, learned):
    session, memory = learned
    login(page, "bob")
    page.goto("/")
    expect(page.locator(f'[data-memory-id="{memory.pk}"]')).to_have_count(0)
    expect(page.locator("[data-provenance]")).to_have_count(0)
    assert page.goto(f"{page.url.rstrip('/')}/sessions/{session.pk}/").status == 404


def test_the_provenance_lines_read_in_chinese(page, login, world, learned):
    _session, memory = learned
    login(page, "alice")
    page.get_by_role("button", name="简体中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    card = page.locator(f'[data-memory-id="{memory.pk}"]')
    expect(card.locator("[data-cited]")).to_have_text("在 3 次回答中用到")
    expect(card.locator("[data-provenance]")).to_contain_text("的对话中习得")
    expect(card).to_contain_text("来源对话")
