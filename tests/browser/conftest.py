"""Playwright fixtures for browser tests: Debian's Chromium, headless, against pytest-django's live server.

Use them from any browser test::

    pytestmark = pytest.mark.browser

    def test_it(page, login, world, screenshot):
        login(page, "alice")            # now logged in; page.goto("/") etc. are relative to the live server
        screenshot(page, "my-memories")  # test-artifacts/my-memories.png (git-ignored)

``page`` is a fresh browser context per test (own cookies, downloads accepted, English UI); the browser
itself is started once per session. Requesting ``page`` starts ``live_server``, which makes the test's
database transactional, so rows the test creates are visible to the server thread.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls tests make around it are
# still synchronous, so Django's "you are in an async context" guard must stand down here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, Page, expect, sync_playwright

CHROMIUM = Path(os.environ.get("MEMGOV_TEST_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
BROWSER_PASSWORD = "browser-test-password"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, live_server) -> Iterator[Page]:
    context = browser.new_context(base_url=live_server.url, accept_downloads=True, locale="en-US")
    context.set_default_timeout(15_000)
    # Web-first assertions wait as long as actions do: CI runs these beside the whole suite on two cores.
    expect.set_options(timeout=15_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def login(live_server) -> Callable[..., None]:
    """``login(page, username, password=None)``: log in through the real login form.

    Without a password the user's password is first set to a known test value, so any user the test
    created (whatever password it chose) can log in.
    """

    def log_in(page: Page, username: str, password: str | None = None) -> None:
        if password is None:
            from django.contrib.auth import get_user_model

            user = get_user_model().objects.get(username=username)
            user.set_password(BROWSER_PASSWORD)
            user.save(update_fields=["password"])
            password = BROWSER_PASSWORD
        page.goto("/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.press("#id_password", "Enter")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)

    return log_in


DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def docs_screenshot() -> Callable[[Page, str], Path | None]:
    """``docs_screenshot(page, name)`` writes docs/screenshots/NAME.png, the viewport as a reader sees it,
    only when ``MEMGOV_UPDATE_DOCS_SCREENSHOTS`` is set (``make screenshots``): a test run leaves the
    checkout as it found it."""

    def take(page: Page, name: str) -> Path | None:
        if not os.environ.get("MEMGOV_UPDATE_DOCS_SCREENSHOTS"):
            return None
        DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = DOCS_SCREENSHOTS / f"{name}.png"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=False)
        return path

    return take


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """``screenshot(page, name)`` saves a full-page PNG to test-artifacts/NAME.png and returns its path."""

    def take(page: Page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        # From the top: a sticky header would otherwise be painted mid-page in a full-page capture.
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
