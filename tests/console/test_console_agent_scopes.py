"""Agent key scopes on the console's agent keys page: shown with the endpoints and tools each allows, edited
by the tenant's admin, audited; invisible and unchangeable for everyone else."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from governance.models import AgentClient
from governance.scopes import SCOPE_TABLE
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Role
from tests.plans import confirmed


def _login(client, membership):
    client.force_login(membership.user)
    return client


@pytest.fixture
def gina(world):
    """acme's admin."""
    return membership_set(
        tenant=world.acme, user=user_create(username="gina", password="pw-123456"), role=Role.TENANT_ADMIN, actor="t"
    )


def test_the_admin_sees_each_scope_with_its_endpoints_and_tools(client, world):
    page = _login(client, world.carol).get("/console/agents/").content.decode()
    assert page.count('data-testid="scope-table"') == 1  # once, in the page (not in its title too)
    for grant in SCOPE_TABLE:
        assert f'data-scope="{grant.scope}"' in page
        assert all(endpoint in page for endpoint in grant.endpoints)
        assert all(tool in page for tool in grant.tools)
    assert "GET /api/v1/audit/export" in page
    assert 'data-testid="scopes-demo-agent"' in page and "memory.write" in page


def test_the_admin_makes_a_key_read_only_and_it_is_audited(client, world):
    agent = world.demo_agent
    response = confirmed(
        _login(client, world.carol),
        f"/console/agents/{agent.pk}/scopes",
        {f"s{agent.pk}-scopes": ["memory.read", "sessions.read"]},
    )
    assert response.status_code == 302
    agent.refresh_from_db()
    assert agent.scopes == ["memory.read", "sessions.read"]
    event = AuditEvent.objects.get(event="agent_rights_changed")
    assert event.actor == "user:carol" and event.details["scopes"] == ["memory.read", "sessions.read"]
    refused = world.agent_client(world.demo_key).post(
        "/api/v1/memories/write",
        {"content": "x", "scope": {"level": "user", "user_id": "alice"}, "source": {"source_type": "user_statement"}},
        format="json",
    )
    assert refused.status_code == 403


def test_an_unknown_scope_is_a_400_that_changes_nothing(client, world):
    agent = world.demo_agent
    response = _login(client, world.carol).post(f"/console/agents/{agent.pk}/scopes", {f"s{agent.pk}-scopes": ["root"]})
    assert response.status_code == 400
    assert "root is not one of the available choices" in response.content.decode()
    assert AgentClient.objects.get(pk=agent.pk).scopes == world.demo_agent.scopes
    assert not AuditEvent.objects.filter(event="agent_rights_changed").exists()


def test_a_new_key_gets_the_scopes_ticked(client, world):
    _login(client, world.carol).post("/console/agents/create", {"name": "reader", "scopes": ["memory.read"]})
    assert AgentClient.objects.get(tenant=world.demo, name="reader").scopes == ["memory.read"]


@pytest.mark.parametrize("who", ["alice", "dave", "erin", "gina"])
def test_nobody_else_sees_or_changes_the_scopes(client, world, gina, who):
    person = gina if who == "gina" else getattr(world, who)
    _login(client, person)
    page = client.get("/console/agents/")
    if who == "gina":  # her own tenant's page, without demo's key
        assert page.status_code == 200 and "demo-agent" not in page.content.decode()
    else:
        assert page.status_code == 404
    agent = world.demo_agent
    response = client.post(f"/console/agents/{agent.pk}/scopes", {f"s{agent.pk}-scopes": []})
    assert response.status_code == 404
    forged = {f"s{agent.pk}-scopes": [], "confirm": "yes", "plan": "0" * 32}
    assert client.post(f"/console/agents/{agent.pk}/scopes", forged).status_code == 404
    agent.refresh_from_db()
    assert len(agent.scopes) == len(SCOPE_TABLE)
