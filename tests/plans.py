"""Plan, then yes (console.plans, My memories' confirm pages): post once for the plan, once more to confirm."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

PLAN_TOKEN = re.compile(r'name="plan" value="([0-9a-f]+)"')


def plan_of(response: Any) -> str:
    """The plan token a plan page carries (the page must be a plan: 200, nothing changed yet)."""
    assert response.status_code == 200, (response.status_code, response.content[:300])
    found = PLAN_TOKEN.search(response.content.decode())
    assert found, "no plan on this page"
    return found.group(1)


def confirmed(client: Any, path: str, data: dict[str, Any] | None = None, **extra: Any) -> Any:
    """POST ``data`` to ``path``, check a plan came back, then POST it again with the plan's "yes"."""
    data = dict(data or {})
    token = plan_of(client.post(path, data))
    return client.post(path, {**data, "plan": token, "confirm": "yes"}, **extra)


class _FormFields(HTMLParser):
    """The hidden (and ticked) fields and the action of the form with ``data-testid=<testid>``."""

    def __init__(self, testid: str) -> None:
        super().__init__()
        self.testid, self.inside, self.action = testid, False, ""
        self.fields: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form" and found.get("data-testid") == self.testid:
            self.inside, self.action = True, found.get("action") or ""
        elif self.inside and tag == "input" and found.get("name"):
            kind = found.get("type") or "text"
            if kind == "hidden" or (kind == "checkbox" and "checked" in found):
                value = found.get("value")
                self.fields.setdefault(str(found["name"]), []).append("on" if value is None else value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def plan_form(response: Any, testid: str = "plan-confirm") -> tuple[str, dict[str, list[str]]]:
    """The action and the fields the plan page's confirm form would send."""
    parser = _FormFields(testid)
    parser.feed(response.content.decode())
    assert parser.action or parser.fields, f"no form {testid!r} on this page"
    return parser.action, parser.fields


def say_yes(client: Any, response: Any, extra: dict[str, Any] | None = None, **kwargs: Any) -> Any:
    """Submit the plan page's confirm form as the person would (``extra`` ticks or sets more fields)."""
    action, fields = plan_form(response)
    return client.post(action or response.request["PATH_INFO"], {**fields, **(extra or {})}, **kwargs)
