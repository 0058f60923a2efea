"""Error pages are memgov's own, with its header and navigation, in the person's language; Django's debug
pages (URL patterns, tracebacks) appear only when MEMGOV_DEBUG_PAGES asks for them."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import override_settings
from django.utils import translation
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("lang", "title", "home"), [("en", "Page not found", "Go to My memories"), ("zh", "找不到页面", "前往我的记忆")]
)
def test_a_missing_page_is_branded_translated_and_leads_home(page, login, world, lang, title, home):
    login(page, "alice")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    response = page.goto("/no-such-page/")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name=title, level=1)).to_be_visible()
    expect(page.locator(".brand")).to_be_visible()
    expect(page.get_by_role("navigation", name="主导航" if lang == "zh" else "Main")).to_be_visible()
    page.get_by_role("link", name=home).click()
    expect(page.get_by_role("heading", level=1)).not_to_have_text(title)


def test_someone_elses_memory_gets_the_same_page_as_a_missing_one(page, login, world, make_memory):
    """The person who must not see it: bob opening alice's memory reads the ordinary "not found"."""
    alices = make_memory(world.demo, "Alice's private note", user_id="alice")
    login(page, "bob")
    response = page.goto(f"/memories/{alices.pk}/edit")
    assert response is not None and response.status == 404
    expect(page.get_by_test_id("error-page")).to_be_visible()
    expect(page.get_by_text("Alice's private note")).to_have_count(0)


@pytest.mark.django_db
def test_debug_pages_only_when_asked_for(client):
    with override_settings(DEBUG=True, MEMGOV_DEBUG_PAGES=False):
        page = client.get("/no-such-page/")
        assert page.status_code == 404 and b'data-testid="error-page"' in page.content
        assert b"DEBUG = True" not in page.content and b"URLconf" not in page.content
    with override_settings(DEBUG=True, MEMGOV_DEBUG_PAGES=True):
        page = client.get("/no-such-page/")
        assert page.status_code == 404 and b"DEBUG = True" in page.content
    api = client.get("/api/v1/no-such-endpoint")
    assert api.status_code == 404 and api["Content-Type"].startswith("application/json")


@pytest.mark.parametrize(
    ("name", "english", "chinese"),
    [("403.html", "Not allowed", "不允许访问"), ("500.html", "Something went wrong", "出了点问题")],
)
def test_403_and_500_pages_render_without_a_request_in_both_languages(name, english, chinese):
    for lang, title in (("en", english), ("zh-hans", chinese)):
        with translation.override(lang):
            html = render_to_string(name)
        assert title in html and "memgov.css" in html and 'data-testid="error-page"' in html
