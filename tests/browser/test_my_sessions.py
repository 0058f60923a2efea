"""A person's sessions in a real browser, in English and in Chinese: the list with its actions, one session's
history (a fork's shared prefix, a compaction's summary), deleting one — and the people who must not see them."""

from __future__ import annotations

import pytest
from my_memories_data import agent_call, agent_session  # tests/browser/, on sys.path under pytest
from playwright.sync_api import expect

from conversations.models import Session

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def two_sessions(page, live_server, key) -> tuple[dict, dict]:
    """A compacted session of alice's, and a fork of it."""
    trip = agent_session(page, live_server, key, title="Lisbon offsite", messages=[
        "Plan the team offsite in Lisbon for May.", "Happy to help plan the Lisbon offsite.",
        "We decided to book the hotel near the river.", "Noted: the hotel near the river.",
    ])  # fmt: skip
    agent_call(page, live_server, key, "POST", f"/api/v1/sessions/{trip['id']}/compact")
    events = agent_call(page, live_server, key, "GET", f"/api/v1/sessions/{trip['id']}/events")["events"]
    fork = agent_call(page, live_server, key, "POST", f"/api/v1/sessions/{trip['id']}/fork",
                      {"from_event_id": events[1]["id"], "title": "Lisbon, plan B"})  # fmt: skip
    agent_call(page, live_server, key, "POST", f"/api/v1/sessions/{fork['id']}/events",
               {"kind": "user_message", "content": "What if we went to Porto instead?"})  # fmt: skip
    return trip, fork


def test_my_sessions_list_history_and_delete(page, login, live_server, world, screenshot):
    trip, fork = two_sessions(page, live_server, world.demo_key)
    login(page, "alice")
    page.get_by_role("link", name="Pause and sessions").click()
    sessions = page.get_by_test_id("sessions")
    expect(sessions.locator(f'tr[data-session="{trip["id"]}"]')).to_contain_text("Lisbon offsite")
    expect(sessions.locator(f'tr[data-session="{fork["id"]}"]')).to_contain_text("forked")
    screenshot(page, "sessions-en")

    sessions.get_by_role("link", name="Lisbon, plan B").click()
    expect(page.get_by_test_id("forked-from")).to_be_visible()
    history = page.get_by_test_id("session-events")
    expect(history).to_contain_text("Plan the team offsite in Lisbon")  # the shared prefix
    expect(history).to_contain_text("What if we went to Porto instead?")
    expect(history).not_to_contain_text("hotel near the river")  # after the fork point, in the original only

    page.goto(f"{live_server.url}/sessions/{trip['id']}/")
    expect(page.locator('li[data-kind="compaction"]')).to_contain_text("Goal:")
    page.get_by_role("link", name="Delete this session").click()
    facts = page.get_by_test_id("session-facts")
    expect(facts).to_contain_text("Lisbon offsite")
    expect(page.get_by_test_id("session-event-count")).to_have_text(str(Session.objects.get(pk=trip["id"]).event_count))
    page.get_by_test_id("plan-cancel").click()  # Cancel: back to its history, nothing deleted
    expect(page.locator('li[data-kind="compaction"]')).to_be_visible()
    assert Session.objects.get(pk=trip["id"]).deleted_at is None
    page.get_by_role("link", name="Delete this session").click()
    page.get_by_role("button", name="Delete this session").click()
    expect(page.locator(".flash__item--success")).to_contain_text("The session was deleted")
    expect(page.get_by_test_id("sessions")).not_to_contain_text("Lisbon offsite")
    expect(page.get_by_test_id("sessions")).to_contain_text("Lisbon, plan B")  # the fork keeps its history
    assert Session.objects.get(pk=trip["id"]).deleted_at is not None  # only the prefix the fork needs is kept


def test_a_teammate_and_another_tenant_see_none_of_them(page, login, live_server, world):
    trip, _ = two_sessions(page, live_server, world.demo_key)
    for person in ("bob", "erin"):
        login(page, person)
        page.goto(f"{live_server.url}/controls/")
        expect(page.get_by_text("Lisbon offsite")).to_have_count(0)
        response = page.goto(f"{live_server.url}/sessions/{trip['id']}/")
        assert response is not None and response.status == 404
        page.context.clear_cookies()


def test_my_sessions_in_chinese(page, login, live_server, world, screenshot):
    trip, fork = two_sessions(page, live_server, world.demo_key)
    login(page, "alice")
    page.get_by_role("button", name="简体中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    page.goto(f"{live_server.url}/controls/")
    expect(page.get_by_role("heading", name="你的会话", level=2)).to_be_visible()
    row = page.locator(f'tr[data-session="{fork["id"]}"]')
    expect(row).to_contain_text("分叉")
    expect(row).to_contain_text("进行中")
    screenshot(page, "sessions-zh")
    row.get_by_role("switch").click()
    expect(page.locator(f'tr[data-session="{fork["id"]}"]').get_by_role("switch")).to_contain_text("临时对话")
    assert Session.objects.get(pk=fork["id"]).dont_save
    page.locator(f'tr[data-session="{trip["id"]}"]').get_by_role("link", name="Lisbon offsite").click()
    expect(page.locator('li[data-kind="compaction"]')).to_contain_text("摘要")
    page.get_by_role("link", name="删除这次会话").click()
    page.get_by_role("button", name="删除这次会话").click()
    expect(page.locator(".flash__item--success")).to_contain_text("会话已删除")
