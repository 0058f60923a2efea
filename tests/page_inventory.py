"""Every page URL people use, who uses it, and who must not see it (tests/test_page_inventory.py checks it).

One row per URL name the resolver knows outside the machine endpoints (API, MCP, health, metrics, schema):
its methods, the person who uses it (``owner``: a demo username, or ``None`` for public pages) and the
people who must not see it (``outsiders``), each refused with ``refusal`` — 404, the missing page, for
another tenant's or another person's object and for a page a role doesn't open; ``"login"`` (a redirect to
the login page) for a page of one's own, which has no other outsider than someone not logged in.

The test fails when a URL pattern is added without a row here, when a page's form posts to a URL this
inventory doesn't allow POST on, and when an outsider gets anything but the refusal or changes anything.

The people are the test world's (tests/conftest.py): alice and bob share demo's team; carol is demo's
admin, dave its compliance officer; erin is acme's member and gina (made by the test) acme's admin.
"""

from __future__ import annotations

from dataclasses import dataclass

GET, POST = "GET", "POST"
LOGIN = "login"  # the refusal of a page of one's own: a redirect to the login page


@dataclass(frozen=True)
class PageUrl:
    name: str  # the URL name, with its namespace ("console:agents") where it has one
    methods: tuple[str, ...]
    owner: str | None  # who uses it; None: anyone (the login page)
    outsiders: tuple[str, ...] = ()
    refusal: int | str = 404


# Machine endpoints: agents and operators call them, people don't browse them (docs/api.md).
MACHINE_PREFIXES = ("api/", "healthz", "readyz", "metrics")

_ADMIN = ("alice", "dave")  # a member and the compliance officer: no admin pages for them
_ADMIN_OBJECT = ("alice", "dave", "gina")  # and acme's admin, for demo's objects
_AUDIT = ("alice", "carol")  # a member, and an admin (who is not the compliance officer)
_MINE = ("bob", "erin")  # a teammate and another tenant's person, for alice's objects
_OWN = ("anonymous",)

INVENTORY: tuple[PageUrl, ...] = (
    PageUrl("login", (GET, POST), None),
    PageUrl("logout", (POST,), None),
    PageUrl("set_language", (POST,), None),
    # The compliance officer's console.
    PageUrl("console:home", (GET,), "dave", ("alice",)),
    PageUrl("console:audit-search", (GET,), "dave", _AUDIT),
    PageUrl("console:audit-event", (GET,), "dave", _AUDIT),
    PageUrl("console:audit-export", (GET, POST), "dave", _AUDIT),
    PageUrl("console:subjects", (GET,), "dave", _AUDIT),
    PageUrl("console:subject-export", (POST,), "dave", _AUDIT),
    # The tenant admin's console.
    PageUrl("console:rules", (GET,), "carol", _ADMIN),
    PageUrl("console:rule-propose", (GET, POST), "carol", _ADMIN),
    PageUrl("console:rule-detail", (GET,), "carol", _ADMIN_OBJECT),
    PageUrl("console:rule-approve", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:rule-reject", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:rule-revoke", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:policy", (GET, POST), "carol", _ADMIN),
    PageUrl("console:policy-restore", (POST,), "carol", _ADMIN),
    PageUrl("console:agent-rights", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:agents", (GET,), "carol", _ADMIN),
    PageUrl("console:agent-create", (POST,), "carol", _ADMIN),
    PageUrl("console:agent-revoke", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:agent-rotate", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:agent-scopes", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:people", (GET,), "carol", _ADMIN),
    PageUrl("console:person-invite", (POST,), "carol", _ADMIN),
    PageUrl("console:invitation-withdraw", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:person-role", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:team-create", (POST,), "carol", _ADMIN),
    PageUrl("console:team-member-add", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:team-member-remove", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:projects", (GET,), "carol", _ADMIN),
    PageUrl("console:project-create", (POST,), "carol", _ADMIN),
    PageUrl("console:project-member-add", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:project-member-remove", (POST,), "carol", _ADMIN_OBJECT),
    PageUrl("console:metrics", (GET,), "carol", _ADMIN),
    # My memories: pages of one's own, and one's own objects.
    PageUrl("my-memories", (GET, POST), "alice", _OWN, LOGIN),
    PageUrl("memory-add", (POST,), "alice", _OWN, LOGIN),
    PageUrl("memory-bulk", (POST,), "alice", _OWN, LOGIN),
    PageUrl("memory-edit", (GET, POST), "alice", _MINE),
    PageUrl("memory-delete", (GET, POST), "alice", _MINE),
    PageUrl("memory-pause", (POST,), "alice", _MINE),
    PageUrl("memory-resume", (POST,), "alice", _MINE),
    PageUrl("memory-history", (GET,), "alice", _MINE),
    PageUrl("memory-rollback", (POST,), "alice", _MINE),
    PageUrl("memory-restore", (POST,), "alice", _MINE),
    PageUrl("memory-deleted", (GET,), "alice", _OWN, LOGIN),
    PageUrl("memory-inbox", (GET,), "alice", _OWN, LOGIN),
    PageUrl("confirmation-accept", (POST,), "alice", _MINE),
    PageUrl("confirmation-decline", (POST,), "alice", _MINE),
    PageUrl("invitations", (GET,), "alice", _OWN, LOGIN),
    PageUrl("invitation-accept", (POST,), "alice", ("bob", "erin")),
    PageUrl("invitation-decline", (POST,), "alice", ("bob", "erin")),
    PageUrl("memory-controls", (GET,), "alice", _OWN, LOGIN),
    PageUrl("subject-pause", (POST,), "alice", _OWN, LOGIN),
    PageUrl("subject-resume", (POST,), "alice", _OWN, LOGIN),
    PageUrl("session-opt-out", (POST,), "alice", _OWN, LOGIN),
    PageUrl("session-clear", (POST,), "alice", _OWN, LOGIN),
    PageUrl("session-history", (GET,), "alice", _MINE),
    PageUrl("session-delete", (GET, POST), "alice", _MINE),
    PageUrl("session-temporary", (POST,), "alice", _MINE),
    PageUrl("my-agents", (GET,), "alice", _OWN, LOGIN),
    PageUrl("agent-switch", (POST,), "alice", ("erin",)),
    PageUrl("memory-commands", (GET, POST), "alice", _OWN, LOGIN),
    PageUrl("memory-preview", (GET, POST), "alice", _OWN, LOGIN),
    PageUrl("my-data", (GET,), "alice", _OWN, LOGIN),
    PageUrl("my-data-export", (POST,), "alice", _OWN, LOGIN),
    PageUrl("my-data-erase", (GET, POST), "alice", _OWN, LOGIN),
    PageUrl("erase-receipt", (GET,), "alice", _MINE),
)

BY_NAME = {page.name: page for page in INVENTORY}
