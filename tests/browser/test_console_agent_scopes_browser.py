"""The tenant admin, in a real browser, makes an agent key read-only on the agent keys page and it stops
writing at once; the page's scope table says what each scope allows. A member never sees the page."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from governance.models import AgentClient
from tests.browser.plans import plan_yes

pytestmark = pytest.mark.browser

WRITE = {
    "content": "Remember that I prefer answers with tables.",
    "scope": {"level": "user", "user_id": "alice"},
    "source": {"source_type": "explicit_user_request"},
}


def _write(key: str) -> int:
    api = Client(HTTP_HOST="localhost")
    return api.post(
        "/api/v1/memories/write", WRITE, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {key}"
    ).status_code


def test_the_admin_makes_a_key_read_only_and_its_writes_stop(page: Page, login, world, screenshot):
    assert _write(world.demo_key) == 200
    login(page, "carol")
    page.goto("/console/agents/")
    table = page.get_by_test_id("scope-table")
    expect(table.locator("tr[data-scope='memory.read']")).to_contain_text("memory_context")
    expect(table.locator("tr[data-scope='memory.write']")).to_contain_text("POST /api/v1/memories/write")

    cell = page.get_by_test_id("scopes-demo-agent")
    cell.get_by_text("Edit scopes").click()
    form = page.get_by_test_id("scopes-form-demo-agent")
    for scope in ("memory.write", "memory.manage", "memory.confirm", "sessions.write"):
        form.get_by_label(scope).uncheck()
    form.get_by_role("button", name="Save scopes").click()
    plan_yes(page, "demo-agent", "memory.write")
    expect(page.locator(".flash")).to_contain_text("Scopes of demo-agent saved")
    expect(page.get_by_test_id("scopes-demo-agent")).to_contain_text("memory.read, sessions.read")
    screenshot(page, "console-agent-scopes")

    assert AgentClient.objects.get(pk=world.demo_agent.pk).scopes == ["handoffs.read", "memory.read", "sessions.read"]
    assert _write(world.demo_key) == 403


def test_a_member_never_sees_the_agent_keys_page(page: Page, login, world):
    login(page, "alice")
    response = page.goto("/console/agents/")
    assert response is not None and response.status == 404
    expect(page.get_by_test_id("scope-table")).to_have_count(0)
    assert "demo-agent" not in page.content()
