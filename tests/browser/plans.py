"""Plan pages in a real browser: check what a plan names, then say yes (or cancel)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def plan_yes(page: Page, *names: str) -> None:
    """The plan page is showing and names each of ``names``; confirm it."""
    plan = page.get_by_test_id("plan")
    expect(plan).to_be_visible()
    for name in names:
        expect(plan).to_contain_text(name)
    page.get_by_test_id("plan-yes").click()


def plan_cancel(page: Page, *names: str) -> None:
    """The plan page is showing and names each of ``names``; cancel it, and wait until the page has left it."""
    plan = page.get_by_test_id("plan")
    expect(plan).to_be_visible()
    for name in names:
        expect(plan).to_contain_text(name)
    page.get_by_test_id("plan-cancel").click()
    expect(plan).to_have_count(0)
