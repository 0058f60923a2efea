"""The audit log reads at a glance, in English and Chinese: 50 events fit in 2.5 screens at 1280 px, events
and codes are labels, hashes are short with a copy button, details are key/value, a row opens its full
record and "back" keeps the filters; people without the compliance role get a 404 for both pages."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from audit.events import Event
from audit.services import audit_record
from governance import labels

pytestmark = pytest.mark.browser

SCREEN = {"width": 1280, "height": 800}


def fifty_events(world) -> None:
    """A realistic mix: writes with reason codes, reads with counts, rule and membership changes."""
    kinds = [
        (Event.MEMORY_WRITE_APPROVED, {"reason_code": "explicit_request", "memory_type": "user_preference",
                                       "scope": "user", "sensitivity": "low"}, {"policy_version": 3}),
        (Event.MEMORY_WRITE_REJECTED, {"reason_code": "restricted_data", "entity_types": ["CREDIT_CARD"]},
         {"candidates": 1}),
        (Event.MEMORY_INJECTED, {}, {"items": 4, "tokens": 312, "memory_ids": [str(uuid.uuid4()) for _ in range(3)]}),
        (Event.MEMBERSHIP_CHANGED, {}, {"role": "tenant_admin", "change": "role_changed"}),
        (Event.CONFIRMATION_ACCEPTED, {"reason_code": "needs_user_confirmation"},
         {"confirmation_id": str(uuid.uuid4()), "confirm_by": "user"}),
    ]  # fmt: skip
    for i in range(50):
        event, fields, details = kinds[i % len(kinds)]
        audit_record(tenant_id=world.demo.pk, event=event, actor="agent:demo-agent" if i % 2 else "user:alice",
                     memory_id=uuid.uuid4(), subject_id="alice", details=details, **fields)  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_fifty_events_fit_in_two_and_a_half_screens(page, login, world, screenshot, lang):
    fifty_events(world)
    page.set_viewport_size(SCREEN)
    login(page, "dave")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    page.goto("/console/audit/")
    rows = page.locator("[data-testid=audit-results] tbody tr")
    expect(rows).to_have_count(50)
    height = page.evaluate("document.documentElement.scrollHeight")
    screenshot(page, f"console-audit-50-{lang}")
    assert height <= 2.5 * SCREEN["height"], f"{height}px for 50 events"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    first = rows.first
    written = str(labels.EVENT_LABELS[Event.CONFIRMATION_ACCEPTED]) if lang == "en" else "确认已接受"
    expect(first).to_contain_text(written)  # newest first: the 50th event, a label not a code
    expect(first).not_to_contain_text("confirmation_accepted")
    hash_cell = first.locator("code.hash")
    assert len(hash_cell.inner_text()) == 8
    assert len(first.locator("button[data-copy]").get_attribute("data-copy")) == 64


def test_a_row_opens_its_full_record_and_back_keeps_the_filters(page, login, world):
    fifty_events(world)
    login(page, "dave")
    page.goto("/console/audit/")
    page.select_option("#id_event", "memory_injected")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_test_id("audit-count")).to_have_text("10 events.")
    row = page.locator("[data-testid=audit-results] tbody tr").first
    seq = row.get_attribute("data-seq")
    row.locator("td.clip").nth(1).click()  # anywhere on the row
    expect(page.get_by_role("heading", name=f"Audit event {seq}")).to_be_visible()
    details = page.get_by_test_id("audit-details")
    expect(details.locator("tr", has_text="tokens")).to_contain_text("312")
    expect(page.get_by_test_id("hash-full")).to_have_text(page.get_by_test_id("hash-full").inner_text())
    assert len(page.get_by_test_id("hash-full").inner_text()) == 64
    page.get_by_test_id("back-to-results").click()
    expect(page.locator("#id_event")).to_have_value("memory_injected")  # the filters are kept
    expect(page.get_by_test_id("audit-count")).to_have_text("10 events.")


def test_nobody_else_opens_an_event(page, login, world):
    """An admin, a member and another tenant's member never open demo's event: the same 404 as a missing one."""
    audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_INJECTED, actor="agent:demo-agent", details={"items": 1})
    from audit.models import AuditEvent

    seq = AuditEvent.objects.filter(tenant=world.demo).order_by("-seq").first().seq
    for person in ("alice", "carol", "erin"):
        login(page, person)
        for path in (f"/console/audit/{seq}/", "/console/audit/"):
            response = page.goto(path)
            assert response is not None and response.status == 404, (person, path)
        page.context.clear_cookies()
    login(page, "dave")
    assert page.goto("/console/audit/999999/").status == 404
