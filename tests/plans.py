"""Plan, then yes (console.plans, My memories' confirm pages): post once for the plan, once more to confirm."""

from __future__ import annotations

import re
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
