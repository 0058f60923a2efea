"""Commands that change something show their plan, naming each memory, and act only on "yes" — in both
languages; a session is chosen from the person's own, never typed; someone else's session is refused."""

from __future__ import annotations

import pytest
from my_memories_data import agent_session, seed_alice  # tests/browser/, on sys.path under pytest
from playwright.sync_api import expect

from memories.models import Memory

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


@pytest.mark.parametrize(
    ("lang", "command", "go", "yes", "cancel", "paused"),
    [
        ("en", "Stop using this preference", "Go", "Yes, do it", "Cancel", "Paused"),
        ("zh", "以后不要根据这个偏好回答", "执行", "确定执行", "取消", "已暂停"),
    ],
)
def test_stop_using_names_the_memory_and_waits_for_yes(page, login, live_server, world, lang, command, go, yes,
                                                       cancel, paused):  # fmt: skip
    memories = seed_alice(world)
    login(page, "alice")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    page.goto(f"{live_server.url}/commands/")
    page.locator("#id_text").fill(command)
    page.get_by_role("button", name=go, exact=True).click()
    plan = page.get_by_test_id("plan")
    cards = plan.locator("[data-memory-id]")
    expect(cards).to_have_count(1)  # the plan names the one memory it would pause
    chosen = cards.first.get_attribute("data-memory-id")
    assert chosen in {str(m.pk) for m in memories}
    assert not Memory.objects.filter(status="paused").exists()  # nothing happened before "yes"

    plan.get_by_role("link", name=cancel).click()  # cancelling changes nothing
    expect(plan).to_have_count(0)  # back on the empty form (the plan page has the same one, filled in)
    assert not Memory.objects.filter(status="paused").exists()

    page.locator("#id_text").fill(command)
    page.get_by_role("button", name=go, exact=True).click()
    page.get_by_test_id("plan-confirm").get_by_role("button", name=yes).click()
    expect(page.locator(f"#m-{chosen} .status")).to_have_text(paused)
    assert {str(pk) for pk in Memory.objects.filter(status="paused").values_list("pk", flat=True)} == {chosen}


def test_yes_acts_only_on_the_memories_shown(page, login, live_server, world):
    """The plan is re-made on "yes"; if it would now pick another memory, nothing changes unseen."""
    memories = seed_alice(world)
    login(page, "alice")
    page.goto(f"{live_server.url}/commands/")
    page.locator("#id_text").fill("Stop using this preference")
    page.get_by_role("button", name="Go", exact=True).click()
    chosen = page.get_by_test_id("plan").locator("[data-memory-id]").first.get_attribute("data-memory-id")
    other = next(m for m in memories if m.type == "user_preference" and str(m.pk) != chosen)
    from django.utils import timezone

    Memory.objects.filter(pk=other.pk).update(last_used_at=timezone.now())  # now "this preference" is another
    page.get_by_test_id("plan-confirm").get_by_role("button", name="Yes, do it").click()
    expect(page.locator(".flash__item--warning")).to_contain_text("Nothing was changed")
    assert not Memory.objects.filter(status="paused").exists()


def test_clear_a_session_chosen_from_my_sessions(page, login, live_server, world):
    session = agent_session(page, live_server, world.demo_key, title="Budget chat", messages=["hi", "hello"])
    from governance.pipeline.base import Scope
    from governance.vocabulary import Level
    from memories.services.records import NewMemory, memory_create

    memory_create(
        tenant_id=world.demo.pk,
        new=NewMemory(scope=Scope(Level.SESSION, user_id="alice", session_id=session["id"]), type="temporary_context",
                      content="The budget is in the shared sheet.", source_type="user_statement"),
        actor="agent:demo-agent", agent=world.demo_agent,
    )  # fmt: skip
    login(page, "alice")
    page.goto(f"{live_server.url}/commands/")
    page.locator("#id_text").fill("Clear this session")
    # The session is picked by its title: no id to know or type.
    page.locator("#id_session_id").select_option(label=page.locator("#id_session_id option", has_text="Budget chat")
                                                 .inner_text())  # fmt: skip
    page.get_by_role("button", name="Go", exact=True).click()
    plan = page.get_by_test_id("plan")
    expect(plan).to_contain_text("The budget is in the shared sheet.")
    assert Memory.objects.filter(session_id=session["id"], status="active").count() == 1
    page.get_by_test_id("plan-confirm").get_by_role("button", name="Yes, do it").click()
    expect(page.locator(".flash__item--success")).to_contain_text("1 memory deleted")
    assert not Memory.objects.filter(session_id=session["id"], status="active").exists()


def test_someone_elses_session_is_refused_by_name(page, login, live_server, world):
    """Bob can't aim alice's session: it isn't among his choices, and sending its id anyway is a 400 that
    names the field, with nothing changed."""
    session = agent_session(page, live_server, world.demo_key, title="Alice's private chat", messages=["a", "b"])
    login(page, "bob")
    page.goto(f"{live_server.url}/commands/")
    expect(page.locator("#id_session_id option", has_text="Alice's private chat")).to_have_count(0)
    page.locator("#id_text").fill("Don't save this session")
    page.evaluate(  # what a hand-made request would send
        "id => { const o = new Option('x', id); document.querySelector('#id_session_id').add(o); o.selected = true; }",
        session["id"],
    )
    with page.expect_response(lambda r: r.url.endswith("/commands/") and r.request.method == "POST") as info:
        page.get_by_role("button", name="Go", exact=True).click()
    assert info.value.status == 400
    expect(page.locator("#session-error")).to_be_visible()
    from conversations.models import Session

    assert not Session.objects.get(pk=session["id"]).dont_save
