"""The page inventory (tests/page_inventory.py) against the product: every URL pattern people use has its
row; every form on every page posts to a URL the inventory allows POST on; and each URL's outsiders get
its refusal (404, or the login page for one's own pages) for every method, and change nothing."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from audit.models import AuditEvent
from conversations.models import Session
from conversations.services.sessions import session_create
from governance.models import AgentClient, Invitation, Membership, PolicyVersion, Project, Team, TeamMembership
from governance.services.invitations import invitation_create
from governance.services.projects import project_create, project_member_add
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Role
from memories.models import AgentAccess, Confirmation, ErasureReceipt, Memory, SessionOptOut, Subject
from memories.services.records import memory_delete
from tests.console.conftest import pending_rule  # noqa: F401 (a fixture)
from tests.page_inventory import BY_NAME, GET, INVENTORY, LOGIN, MACHINE_PREFIXES, PageUrl


def _patterns(patterns: list[Any], prefix: str = "", namespace: str = "") -> list[tuple[str, str]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}:{pattern.namespace}" if namespace and pattern.namespace else pattern.namespace
            found += _patterns(pattern.url_patterns, prefix + str(pattern.pattern), inner or namespace)
        elif isinstance(pattern, URLPattern):
            found.append((prefix + str(pattern.pattern), f"{namespace}:{pattern.name}" if namespace else pattern.name))
    return found


def test_every_url_pattern_people_use_is_in_the_inventory():
    people = {name for route, name in _patterns(get_resolver().url_patterns) if not route.startswith(MACHINE_PREFIXES)}
    assert people - set(BY_NAME) == set(), "a URL pattern people use has no row in tests/page_inventory.py"
    assert set(BY_NAME) - people == set(), "tests/page_inventory.py names a URL the resolver doesn't know"
    assert len(BY_NAME) == len(INVENTORY)


@pytest.fixture
def scene(world, make_memory, pending_rule):  # noqa: F811
    """One object of each kind a URL names: alice's (memory, confirmation, session, receipt, invitation to
    acme) and demo's (rule, agent, person, team, project, invitation, audit event)."""
    gina = membership_set(
        tenant=world.acme, user=user_create(username="gina", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )
    memory = make_memory(world.demo, "Alice prefers tables.", user_id="alice")
    gone = make_memory(world.demo, "Alice's old note.", user_id="alice")
    memory_delete(memory=gone, actor="user:alice")
    inferred = {
        "type": "user_preference",
        "content": "The user seems to prefer tea.",
        "scope": {"level": "user", "user_id": "alice"},
        "source": {"source_type": "agent_inference", "source_message_id": "m1"},
        "confidence": 0.7,
    }
    asked = world.agent_client(world.demo_key).post("/api/v1/memories/write", inferred, format="json").json()
    confirmation = Confirmation.objects.get(pk=asked["confirmation_id"])
    session = session_create(tenant_id=world.demo.pk, user_id="alice", app="chat", title="Offsite", actor="t")
    project = project_create(tenant=world.demo, slug="docs", name="Docs", actor="t")
    project_member_add(project=project, membership=world.alice, actor="t")
    mine = {
        "memory_id": memory.pk,
        "confirmation_id": confirmation.pk,
        "session_id": session.pk,
        "receipt_id": ErasureReceipt.objects.create(
            tenant=world.demo,
            user_id="alice",
            erased_by="user:alice",
            memories_erased=0,
            versions_erased=0,
            key_destroyed=True,
        ).pk,
        "invitation_id": invitation_create(
            tenant=world.acme, username="alice", role="member", subject_id="", acting=gina
        ).pk,
        "agent_id": world.demo_agent.pk,
    }
    console = {
        "memory_id": pending_rule.pk,
        "agent_id": world.demo_agent.pk,
        "membership_id": world.alice.pk,
        "team_id": Team.objects.get(tenant=world.demo, slug="ai-platform").pk,
        "project_id": project.pk,
        "invitation_id": invitation_create(
            tenant=world.demo, username="hank", role="member", subject_id="", acting=world.carol
        ).pk,
        "seq": AuditEvent.objects.filter(tenant=world.demo).latest("seq").seq,
    }
    people = {"gina": gina, **{name: getattr(world, name) for name in ("alice", "bob", "carol", "dave", "erin")}}
    return {"mine": mine, "console": console, "people": people, "gone": gone}


def _path(scene: dict[str, Any], page: PageUrl) -> str:
    objects = scene["console"] if page.name.startswith("console:") else scene["mine"]
    if page.name == "memory-restore":
        objects = {**objects, "memory_id": scene["gone"].pk}
    route = next(route for route, name in _patterns(get_resolver().url_patterns) if name == page.name)
    wanted = re.findall(r"<(?:\w+:)?(\w+)>", route)
    return reverse(page.name, kwargs={key: objects[key] for key in wanted})


def _client(scene: dict[str, Any], who: str | None) -> Client:
    client = Client()
    if who and who != "anonymous":
        client.force_login(scene["people"][who].user)
    return client


def _state() -> dict[str, Any]:
    """Everything a page could change, to compare before and after a refused request."""
    return {
        "audit": AuditEvent.objects.count(),
        "memories": sorted(Memory.objects.values_list("pk", "status", "version")),
        "confirmations": sorted(Confirmation.objects.values_list("pk", "state")),
        "agents": sorted(AgentClient.objects.values_list("pk", "revoked_at", "key_prefix", "scopes", "allowed_types")),
        "memberships": sorted(Membership.objects.values_list("pk", "role")),
        "teams": sorted(TeamMembership.objects.values_list("team_id", "membership_id", "is_owner")),
        "projects": sorted(Project.objects.values_list("pk", "slug")),
        "invitations": sorted(Invitation.objects.values_list("pk", "state")),
        "policy": PolicyVersion.objects.count(),
        "sessions": sorted(Session.objects.values_list("pk", "deleted_at", "dont_save")),
        "switches": sorted(AgentAccess.objects.values_list("pk", "blocked")),
        "opt_outs": SessionOptOut.objects.count(),
        "paused": sorted(Subject.objects.filter(memory_paused=True).values_list("tenant_id", "user_id")),
        "receipts": ErasureReceipt.objects.count(),
    }


# What a POST carries, so that a refusal can't be put down to a form error: the owner's data would act.
POSTED = {
    "console:person-role": {"role": "tenant_admin"},
    "console:rule-reject": {"reason": "no"},
    "console:rule-revoke": {"reason": "no"},
    "console:team-member-add": {"membership": 0},
    "console:agent-scopes": {},
    "session-temporary": {"temporary": "on"},
    "agent-switch": {"blocked": "on"},
    "my-data-erase": {"phrase": "erase my memories"},
}


@pytest.mark.parametrize("page", [p for p in INVENTORY if p.outsiders], ids=lambda p: p.name)
def test_its_outsiders_get_the_refusal_and_change_nothing(world, scene, page):
    path = _path(scene, page)
    for who in page.outsiders:
        client = _client(scene, who)
        for method in page.methods:
            before = _state()
            data = {**POSTED.get(page.name, {}), "confirm": "yes", "plan": "0" * 32}
            response = client.get(path) if method == GET else client.post(path, data)
            if page.refusal == LOGIN:
                assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), (
                    who, method, path, response.status_code,
                )  # fmt: skip
            else:
                assert response.status_code == page.refusal, (who, method, path, response.status_code)
            assert _state() == before, (who, method, path)


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "form":
            found = dict(attrs)
            self.forms.append(((found.get("method") or "get").upper(), found.get("action") or ""))


GET_PAGES = [p for p in INVENTORY if GET in p.methods and p.owner]


@pytest.mark.parametrize("page", GET_PAGES, ids=lambda p: p.name)
def test_every_form_on_the_page_goes_to_a_url_of_the_inventory_that_allows_it(world, scene, page):
    path = _path(scene, page)
    response = _client(scene, page.owner).get(path)
    assert response.status_code == 200, (path, response.status_code)
    parser = _Forms()
    parser.feed(response.content.decode())
    if page.name in ("console:people", "console:agents", "memory-controls", "my-memories"):
        assert len(parser.forms) >= 3, (path, parser.forms)  # the pages with the most actions: found them
    for method, action in parser.forms:
        target = urlsplit(action).path or path
        match = resolve(target)
        name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
        assert name in BY_NAME, (path, action)
        assert method in BY_NAME[name].methods, (path, method, action)


@pytest.mark.parametrize("page", [p for p in INVENTORY if p.owner and GET not in p.methods], ids=lambda p: p.name)
def test_a_post_only_url_refuses_get_for_its_owner(world, scene, page):
    before = _state()
    assert _client(scene, page.owner).get(_path(scene, page)).status_code == 405
    assert _state() == before


def test_the_inventory_owner_sees_every_page_in_both_languages(world, scene):
    for page in GET_PAGES:
        client = _client(scene, page.owner)
        client.cookies.load({"django_language": "zh-hans"})
        response = client.get(_path(scene, page))
        assert response.status_code == 200 and '<html lang="zh-hans"' in response.content.decode(), page.name
