"""The Agents page and the temporary-conversation switch in a real browser, in English and Chinese: what each
agent did with alice's memories, switching one off (its reads and writes are refused at once) and on again;
a listed conversation made temporary with one switch; and the people who must not see alice's activity."""

from __future__ import annotations

import pytest
from my_memories_data import agent_call, agent_context, agent_session, agent_write  # tests/browser/, on sys.path
from playwright.sync_api import expect

from governance.services.tenancy import agent_key_create
from memories.models import AgentAccess

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def demo_row(page, world):
    return page.locator(f'tr[data-agent="{world.demo_agent.pk}"]')


def activity(page, live_server, world) -> None:
    """demo-agent saves one memory of alice's and reads her context once; calendar-bot never touches her."""
    agent_key_create(tenant=world.demo, name="calendar-bot", actor="test")
    assert (
        agent_write(page, live_server, world.demo_key, "Prefers Markdown tables when comparing options.")["decision"]
        == "save"
    )
    assert agent_context(page, live_server, world.demo_key, "tables")["items"]


def test_my_agents_and_switching_one_off(page, login, live_server, world, screenshot):
    activity(page, live_server, world)
    login(page, "alice")
    page.get_by_test_id("nav-agents").click()
    expect(page.get_by_role("heading", name="Your agents", level=1)).to_be_visible()
    row = demo_row(page, world)
    expect(row.get_by_test_id("writes")).to_contain_text("1 write")
    expect(row.get_by_test_id("reads")).to_contain_text("1 read")
    expect(page.get_by_test_id("agents")).to_contain_text("calendar-bot")
    expect(page.get_by_test_id("agents")).not_to_contain_text("acme-agent")
    switch = page.get_by_role("switch", name="demo-agent may use my memories")
    expect(switch).to_have_attribute("aria-checked", "true")

    switch.click()
    expect(page.locator(".flash__item--success")).to_contain_text("demo-agent is switched off")
    expect(page.get_by_role("switch", name="demo-agent may use my memories")).to_have_attribute("aria-checked", "false")
    assert agent_context(page, live_server, world.demo_key, "tables")["items"] == []
    refused = agent_write(page, live_server, world.demo_key, "Prefers YAML over JSON")
    assert (refused["decision"], refused["reason_code"]) == ("reject", "subject_blocked_agent")
    page.reload()
    expect(demo_row(page, world).get_by_test_id("refused")).to_contain_text("2 times while off")
    expect(demo_row(page, world).get_by_test_id("reads")).to_contain_text("1 read")  # refusals are not reads
    screenshot(page, "agents-en")

    page.get_by_role("switch", name="demo-agent may use my memories").click()
    expect(page.locator(".flash__item--success")).to_contain_text("demo-agent may use your memories again")
    assert agent_context(page, live_server, world.demo_key, "tables")["items"]


def test_my_agents_in_chinese(page, login, live_server, world, screenshot):
    activity(page, live_server, world)
    login(page, "alice")
    page.get_by_role("button", name="简体中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    page.get_by_role("link", name="智能体", exact=True).click()
    expect(page.get_by_role("heading", name="你的智能体", level=1)).to_be_visible()
    row = demo_row(page, world)
    expect(row.get_by_test_id("writes")).to_contain_text("1 次写入")
    expect(row.get_by_test_id("reads")).to_contain_text("1 次读取")
    switch = page.get_by_role("switch", name="demo-agent 可以使用我的记忆")
    expect(switch).to_contain_text("已开启")
    switch.click()
    expect(page.locator(".flash__item--success")).to_contain_text("demo-agent 已关闭")
    expect(page.get_by_role("switch", name="demo-agent 可以使用我的记忆")).to_contain_text("已关闭")
    assert agent_context(page, live_server, world.demo_key, "tables")["items"] == []
    screenshot(page, "agents-zh")


def test_bob_and_erin_see_none_of_alices_activity_and_bobs_switch_is_his_own(page, login, live_server, world):
    activity(page, live_server, world)
    login(page, "bob")
    page.goto("/agents/")
    row = demo_row(page, world)
    expect(row.get_by_test_id("reads")).to_contain_text("Never")  # alice's read is not bob's
    expect(row.get_by_test_id("writes")).to_contain_text("Never")
    page.get_by_role("switch", name="demo-agent may use my memories").click()
    expect(page.get_by_role("switch", name="demo-agent may use my memories")).to_have_attribute("aria-checked", "false")
    assert agent_context(page, live_server, world.demo_key, "tables")["items"]  # alice's memories: still hers to share
    page.context.clear_cookies()
    login(page, "erin")
    page.goto("/agents/")
    expect(page.get_by_test_id("agents")).to_contain_text("acme-agent")
    expect(page.get_by_test_id("agents")).not_to_contain_text("demo-agent")
    # erin sends her own page's form, aimed at the other tenant's agent: not found, and nothing changes.
    token = page.locator("input[name=csrfmiddlewaretoken]").first.get_attribute("value")
    response = page.request.post(
        f"{live_server.url}/agents/{world.demo_agent.pk}/switch", form={"csrfmiddlewaretoken": token, "use": "off"}
    )
    assert response.status == 404
    assert not AgentAccess.objects.filter(user_id="erin").exists()


def session_write(page, live_server, world, session_id: str) -> dict:
    scope = {"level": "session", "user_id": "alice", "session_id": session_id}
    return agent_write(
        page, live_server, world.demo_key, "We are discussing the offsite.", type="temporary_context", scope=scope,
        source={"source_type": "user_statement"},
    )  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_this_conversation_made_temporary_with_one_switch(page, login, live_server, world, screenshot, lang):
    session = agent_session(page, live_server, world.demo_key, title="Offsite logistics", messages=["Book rooms", "Ok"])
    login(page, "alice")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    page.goto("/controls/")
    current = page.get_by_test_id("current-session")
    expect(current).to_contain_text("Offsite logistics")
    switch = current.get_by_role("switch")
    expect(switch).to_have_attribute("aria-checked", "false")
    expect(switch).to_contain_text("Saved as usual" if lang == "en" else "正常保存")
    switch.click()
    expect(page.locator(".flash__item--success")).to_contain_text(
        "nothing more from it will be remembered" if lang == "en" else "之后的内容都不会被记住"
    )
    switch = page.get_by_test_id("current-session").get_by_role("switch")
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(switch).to_contain_text("Temporary" if lang == "en" else "临时对话")
    row = page.locator(f'tr[data-session="{session["id"]}"]')
    expect(row.get_by_role("switch")).to_have_attribute("aria-checked", "true")  # the list says the same
    assert session_write(page, live_server, world, session["id"])["reason_code"] == "session_opt_out"
    screenshot(page, f"temporary-{lang}")

    page.get_by_test_id("current-session").get_by_role("switch").click()
    expect(page.get_by_test_id("current-session").get_by_role("switch")).to_have_attribute("aria-checked", "false")
    assert session_write(page, live_server, world, session["id"])["decision"] == "save"
    kept = agent_call(page, live_server, world.demo_key, "GET", f"/api/v1/sessions/{session['id']}")
    assert kept["dont_save"] is False


def test_nobody_else_sees_alices_conversation_to_switch(page, login, live_server, world):
    agent_session(page, live_server, world.demo_key, title="Offsite logistics", messages=["Book rooms"])
    for person in ("bob", "erin"):
        login(page, person)
        page.goto("/controls/")
        expect(page.get_by_text("Offsite logistics")).to_have_count(0)
        expect(page.get_by_test_id("current-session")).to_have_count(0)
        page.context.clear_cookies()
