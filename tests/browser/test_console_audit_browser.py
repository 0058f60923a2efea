"""The compliance officer in a real browser: search the audit log, download an export, verify it offline."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from audit.events import Event
from audit.models import AuditEvent
from audit.services import audit_record

pytestmark = pytest.mark.browser


def test_the_compliance_officer_searches_exports_and_verifies(page, login, world, screenshot, tmp_path, capsys):
    for i in range(3):
        audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_INJECTED, actor="agent:demo-agent", details={"i": i})
    login(page, "dave")

    page.get_by_test_id("nav-console").click()
    expect(page).to_have_url(re.compile(r"/console/$"))
    page.get_by_test_id("console-link-audit").click()

    page.select_option("#id_event", "memory_injected")
    page.fill("#id_actor", "demo-agent")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("audit-count")).to_have_text("3 events.")
    expect(page.locator("[data-testid=audit-results] tbody tr")).to_have_count(3)
    screenshot(page, "console-audit-search")

    page.get_by_role("link", name="Export and verify").first.click()
    expect(page.get_by_test_id("key-id")).to_be_visible()
    page.check("input[name=format][value=jsonl]")
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download export").click()
    download = download_info.value
    assert re.fullmatch(r"memgov-audit-demo-\d{8}T\d{6}Z\.jsonl", download.suggested_filename)
    exported = tmp_path / download.suggested_filename
    download.save_as(exported)
    screenshot(page, "console-audit-export")

    call_command("verify_audit_export", str(exported))
    assert capsys.readouterr().out.startswith("OK: ")
    assert AuditEvent.objects.filter(tenant=world.demo, event=Event.AUDIT_EXPORTED, actor="user:dave").count() == 1


def test_a_csv_download_verifies_too(page, login, world, tmp_path, capsys):
    login(page, "dave")
    page.goto("/console/audit/export")
    page.check("input[name=format][value=csv]")
    page.fill("#id_start", "2000-01-01")
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download export").click()
    exported = tmp_path / "export.csv"
    download_info.value.save_as(exported)
    call_command("verify_audit_export", str(exported))
    assert capsys.readouterr().out.startswith("OK: ")


def test_a_member_sees_no_console(page, login, world):
    login(page, "alice")
    expect(page.get_by_test_id("nav-console")).to_have_count(0)
    response = page.goto("/console/audit/")
    assert response is not None and response.status == 404
