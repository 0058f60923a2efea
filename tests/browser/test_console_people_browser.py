"""The tenant admin in a real browser: people and teams, projects (whose rules follow membership at
the next read), and agent keys (shown once, working at once, refused once revoked)."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from governance.models import AgentClient, Membership, Project
from governance.services.tenancy import user_create
from governance.vocabulary import Level
from memories.access import Caller
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from tests.browser.plans import plan_yes

pytestmark = pytest.mark.browser

PROJECT_RULE = "docs-site: every page change needs a screenshot in the pull request."


def rules_for(world, subject: str, project: str) -> list[str]:
    """What the demo agent is given for this subject working in this project."""
    caller = Caller(tenant_id=world.demo.pk, actor="agent:demo-agent", agent=world.demo_agent)
    scope = ContextScope(user_id=subject, project=project)
    result = memory_context_build(caller=caller, request=ContextRequest(scope=scope, query="page change"))
    return [item.content for item in result.items]


def test_people_roles_and_teams(page: Page, browser, live_server, login, world, screenshot):
    user_create(username="hank", password="x")
    login(page, "carol")
    page.goto("/console/people/")
    page.fill("#id_username", "hank")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("hank is invited.")
    expect(page.get_by_test_id("invitations").locator("tr[data-invited=hank]")).to_be_visible()
    expect(page.get_by_test_id("people").locator("tr[data-user=hank]")).to_have_count(0)  # not before saying yes
    screenshot(page, "console-people-invited")

    # hank, in his own browser, finds the invitation and accepts it.
    context = browser.new_context(base_url=live_server.url, locale="en-US")
    hank_page = context.new_page()
    login(hank_page, "hank")
    expect(hank_page.get_by_role("heading", name="My memories")).to_be_visible()
    hank_page.get_by_test_id("nav-invitations").click()
    invitation = hank_page.locator("[data-invitation-id]")
    expect(invitation).to_contain_text("Member")
    screenshot(hank_page, "invitations")
    invitation.get_by_role("button", name="Accept").click()
    expect(hank_page.locator(".flash")).to_contain_text("Welcome to")
    expect(hank_page.get_by_test_id("nav-invitations")).to_have_count(0)
    context.close()

    page.goto("/console/people/")
    expect(page.get_by_test_id("people").locator("tr[data-user=hank]")).to_be_visible()
    expect(page.get_by_test_id("invitations")).to_have_count(0)

    hank = Membership.objects.get(tenant=world.demo, user__username="hank")
    row = page.get_by_test_id("people").locator("tr[data-user=hank]")
    row.locator("select").select_option("compliance_officer")
    row.get_by_role("button", name="Set role").click()
    plan_yes(page, "hank", "Member", "Compliance officer")
    expect(page.locator(".flash")).to_contain_text("hank is now Compliance officer.")
    hank.refresh_from_db()
    assert hank.role == "compliance_officer"

    team = page.locator("[data-team=ai-platform]")
    team.locator("select").select_option(label="hank")
    team.get_by_role("button", name="Add to team").click()
    expect(page.locator("[data-team=ai-platform]")).to_contain_text("hank")
    page.get_by_test_id("remove-ai-platform-hank").click()
    plan_yes(page, "hank", "ai-platform", "Not on it")
    expect(page.locator(".flash")).to_contain_text("hank left team ai-platform")
    expect(page.locator("[data-team=ai-platform] .team-member", has_text="hank")).to_have_count(0)
    screenshot(page, "console-people")


def test_project_membership_decides_who_gets_its_rules(page: Page, login, world, make_memory, screenshot):
    make_memory(world.demo, PROJECT_RULE, level=Level.PROJECT, project="docs-site", type="project_rule")
    login(page, "carol")
    page.goto("/console/projects/")
    expect(page.locator(".group__empty")).to_be_visible()
    page.fill("#id_slug", "docs-site")
    page.fill("#id_name", "Docs site")
    page.get_by_role("button", name="Create project").click()
    expect(page.locator(".flash")).to_contain_text("Project docs-site created.")
    page.fill("#id_slug", "docs-site")  # taken: the form says so, nothing more is created
    page.get_by_role("button", name="Create project").click()
    expect(page.locator(".field__error").first).to_contain_text("exists already")
    assert Project.objects.filter(tenant=world.demo).count() == 1
    assert rules_for(world, "bob", "docs-site") == []  # nobody is in it yet

    project = page.locator("[data-project=docs-site]")
    project.locator("select").select_option(label="bob")
    project.get_by_role("button", name="Add to project").click()
    expect(page.locator(".flash")).to_contain_text("bob is in project docs-site.")
    assert rules_for(world, "bob", "docs-site") == [PROJECT_RULE]
    assert rules_for(world, "alice", "docs-site") == []  # in the tenant, not in the project
    screenshot(page, "console-projects")

    page.get_by_test_id("remove-docs-site-bob").click()
    plan_yes(page, "bob", "docs-site", "Not in it")
    expect(page.locator(".flash")).to_contain_text("bob left project docs-site")
    expect(page.locator("[data-project=docs-site]")).to_contain_text("Nobody yet")
    assert rules_for(world, "bob", "docs-site") == []


def test_an_agent_key_is_shown_once_works_and_stops_when_revoked(page: Page, login, world, live_server):
    login(page, "carol")
    page.goto("/console/agents/")
    page.fill("#id_name", "support-bot")
    page.get_by_role("button", name="Create key").click()
    key = page.get_by_test_id("agent-key").input_value()
    assert key.startswith("mg_")
    page.get_by_role("link", name="Done").click()
    expect(page.get_by_test_id("agents").locator("tr[data-agent=support-bot]")).to_contain_text("active")
    assert key not in page.content()  # only its prefix is ever shown again

    api = Client(HTTP_HOST="localhost")
    body = {"scope": {"user_id": "alice"}, "query": "answers"}
    ok = api.post("/api/v1/memories/context", body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert ok.status_code == 200

    page.get_by_test_id("revoke-support-bot").click()
    plan_yes(page, "support-bot", "Works", "Revoked")
    expect(page.get_by_test_id("agents").locator("tr[data-agent=support-bot]")).to_contain_text("revoked")
    assert not AgentClient.objects.get(tenant=world.demo, name="support-bot").is_active
    refused = api.post(
        "/api/v1/memories/context", body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {key}"
    )
    assert refused.status_code == 401
