"""Every destructive action names what it will change before it does, and can be cancelled — clicked
through in a real browser, in English and in Chinese: Cancel changes nothing, "yes" changes exactly what the
plan named, and the person who must not see it (another tenant's admin, a teammate) gets the missing page
for the plan and for its "yes", and changes nothing."""

from __future__ import annotations

import pytest
from my_memories_data import agent_session  # tests/browser/, on sys.path under pytest
from playwright.sync_api import Page, expect

from audit.models import AuditEvent
from conversations.models import Session
from governance.models import AgentClient, Membership
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Level, Role
from memories.models import Memory
from tests.browser.plans import plan_cancel, plan_yes

pytestmark = pytest.mark.browser


def _post_as(page: Page, path: str, form: dict[str, str]) -> int:
    """POST ``form`` to ``path`` from this page's logged-in browser context, with its CSRF token."""
    page.goto("/")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    return page.request.post(path, form={**form, "csrfmiddlewaretoken": token}, headers={"X-CSRFToken": token}).status


def _confirm_fields(page: Page) -> dict[str, str]:
    """The fields the plan page's "yes" would send (one value each), once the page shows all of its form."""
    form = page.get_by_test_id("plan-confirm")
    expect(form.get_by_test_id("plan-cancel")).to_be_visible()  # the form's last element
    return form.evaluate(
        "form => Object.fromEntries([...new FormData(form)].filter(([k]) => k !== 'csrfmiddlewaretoken'))"
    )


def test_console_plans_cancel_then_yes_in_english_and_the_other_tenants_admin_gets_404(
    page, login, world, docs_screenshot
):
    membership_set(
        tenant=world.acme, user=user_create(username="gina", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )
    agent = world.demo_agent
    login(page, "carol")
    page.goto("/console/agents/")
    page.get_by_test_id("revoke-demo-agent").click()
    expect(page.locator("h1")).to_have_text("Revoke the key of demo-agent?")
    docs_screenshot(page, "console-plan")
    plan_cancel(page, agent.key_prefix, "Works", "Revoked")
    expect(page).to_have_url(f"{page.url.split('/console/')[0]}/console/agents/")
    assert AgentClient.objects.get(pk=agent.pk).is_active  # Cancel changed nothing

    page.get_by_test_id("revoke-demo-agent").click()
    fields = _confirm_fields(page)
    plan_yes(page, agent.key_prefix)
    expect(page.locator(".flash")).to_contain_text("The key of demo-agent is revoked")
    assert not AgentClient.objects.get(pk=agent.pk).is_active
    assert AgentClient.objects.filter(tenant=world.demo, revoked_at__isnull=True).count() == 0

    # acme's admin, holding the very "yes" carol saw, gets the missing page for it; demo is untouched.
    before = AuditEvent.objects.filter(tenant=world.demo).count()
    login(page, "gina")
    assert _post_as(page, f"/console/people/{world.alice.pk}/role", {"role": "tenant_admin"}) == 404
    assert _post_as(page, f"/console/agents/{agent.pk}/rotate", fields) == 404
    assert AuditEvent.objects.filter(tenant=world.demo).count() == before
    assert Membership.objects.get(pk=world.alice.pk).role == Role.MEMBER


def test_console_role_plan_in_chinese_and_a_member_gets_404(page, login, world):
    login(page, "carol")
    page.context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": page.url}])
    page.goto("/console/people/")
    row = page.get_by_test_id("people").locator("tr[data-user=alice]")
    row.locator("select").select_option("compliance_officer")
    row.locator("button").click()
    plan = page.get_by_test_id("plan")
    expect(plan).to_contain_text("alice")
    expect(plan).to_contain_text("成员")  # Member → Compliance officer, in words
    expect(plan).to_contain_text("合规专员")
    expect(page.get_by_test_id("plan-yes")).to_have_text("是的，更改角色")
    expect(page.get_by_test_id("plan-cancel")).to_have_text("取消")
    fields = _confirm_fields(page)
    assert Membership.objects.get(pk=world.alice.pk).role == Role.MEMBER  # the plan changed nothing
    page.get_by_test_id("plan-yes").click()
    expect(page.locator(".flash")).to_contain_text("alice")
    assert Membership.objects.get(pk=world.alice.pk).role == Role.COMPLIANCE_OFFICER

    # bob, a member, can't see the plan nor use its "yes" (even one that would put alice back).
    login(page, "bob")
    assert _post_as(page, f"/console/people/{world.alice.pk}/role", {**fields, "role": "member"}) == 404
    assert Membership.objects.get(pk=world.alice.pk).role == Role.COMPLIANCE_OFFICER


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_clearing_and_deleting_a_session_name_it_and_a_teammate_gets_404(
    page, login, live_server, world, make_memory, language
):
    session = agent_session(page, live_server, world.demo_key, title="Offsite logistics", messages=["Book rooms", "Ok"])
    note = make_memory(world.demo, "Rooms are booked for Thursday.", user_id="alice", type="temporary_context",
                       level=Level.SESSION, session_id=session["id"])  # fmt: skip
    login(page, "alice")
    if language != "en":
        page.context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": page.url}])
    page.goto("/controls/")
    page.locator(f'tr[data-session="{session["id"]}"]').locator(
        "button", has_text="清除" if language != "en" else "Clear"
    ).click()
    plan = page.get_by_test_id("plan")
    expect(page.get_by_test_id("session-facts")).to_contain_text("Offsite logistics")
    expect(page.get_by_test_id("session-facts")).to_contain_text("chat")
    expect(page.get_by_test_id("session-event-count")).to_have_text("2")
    expect(plan.get_by_test_id("plan-memories")).to_contain_text("Rooms are booked for Thursday.")
    page.get_by_test_id("plan-cancel").click()
    expect(page).to_have_url(f"{live_server.url}/controls/")
    assert Memory.objects.get(pk=note.pk).status == "active"  # Cancel changed nothing

    page.goto(f"/sessions/{session['id']}/delete")
    expect(page.get_by_test_id("session-facts")).to_contain_text("Offsite logistics")
    expect(page.get_by_test_id("plan-scoped")).to_contain_text("Rooms are booked for Thursday.")
    fields = _confirm_fields(page)
    # bob, alice's teammate, holding her "yes", gets the missing page; her session stays.
    login(page, "bob")
    assert _post_as(page, f"/sessions/{session['id']}/delete", fields) == 404
    assert Session.objects.filter(pk=session["id"], deleted_at__isnull=True).exists()
    login(page, "alice")
    page.goto(f"/sessions/{session['id']}/delete")
    page.get_by_test_id("plan-yes").click()
    expect(page.locator(".flash__item--success")).to_be_visible()
    assert not Session.objects.filter(pk=session["id"], deleted_at__isnull=True).exists()
    assert Memory.objects.get(pk=note.pk).status == "deleted"
