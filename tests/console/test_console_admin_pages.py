"""The tenant admin's console pages: who may open what (everyone else: the missing page's 404),
and what the pages do with input."""

from __future__ import annotations

import pytest
from django.test import Client

from audit.events import Event
from audit.models import AuditEvent
from governance.models import AgentClient, Invitation, Membership, PolicyVersion, Project, Team, all_agent_scopes
from governance.services.projects import project_create
from governance.services.tenancy import user_create
from governance.vocabulary import Level, Role, Status
from memories.models import Memory
from tests.console.conftest import RULE
from tests.plans import confirmed


def login(client, membership):
    client.force_login(membership.user)
    return client


def get_pages(rule_id, agent_id):
    return [
        "/console/rules/",
        "/console/rules/propose",
        f"/console/rules/{rule_id}/",
        "/console/policy/",
        "/console/agents/",
        "/console/people/",
        "/console/projects/",
        "/console/metrics/",
    ]


def post_endpoints(world, rule_id):
    agent, team = world.demo_agent.pk, Team.objects.get(tenant=world.demo).pk
    project = (
        Project.objects.filter(tenant=world.demo).first() or project_create(tenant=world.demo, slug="docs", actor="t")
    ).pk
    alice = world.alice.pk
    return [
        (f"/console/rules/{rule_id}/approve", {"reason": ""}),
        (f"/console/rules/{rule_id}/reject", {"reason": "no"}),
        (f"/console/rules/{rule_id}/revoke", {"reason": "no"}),
        ("/console/rules/propose", {"content": "Ship on Tuesdays.", "type": "organization_rule", "level": "tenant"}),
        ("/console/policy/", {"reason": "x"}),
        ("/console/policy/restore", {"version": 1, "reason": "x"}),
        (f"/console/policy/agents/{agent}", {"a{agent}-allowed_types": ["user_preference"]}),
        ("/console/agents/create", {"name": "new-agent"}),
        (f"/console/agents/{agent}/revoke", {}),
        (f"/console/agents/{agent}/rotate", {}),
        (f"/console/agents/{agent}/scopes", {f"s{agent}-scopes": ["memory.read"]}),
        ("/console/people/invite", {"username": "erin", "role": "member"}),
        (f"/console/people/{alice}/role", {"role": "tenant_admin"}),
        ("/console/teams/create", {"slug": "new-team"}),
        (f"/console/teams/{team}/members", {"membership": alice}),
        (f"/console/teams/{team}/members/{alice}/remove", {}),
        ("/console/projects/create", {"slug": "new-project"}),
        (f"/console/projects/{project}/members", {"membership": alice}),
        (f"/console/projects/{project}/members/{alice}/remove", {}),
    ]


# --- Who may open what ------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["alice", "dave", "erin"])
def test_members_officers_and_other_tenants_people_get_the_missing_page(client, world, pending_rule, who):
    login(client, getattr(world, who))
    missing = client.get("/console/no-such-page/")
    assert missing.status_code == 404
    for path in get_pages(pending_rule.pk, world.demo_agent.pk):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.content == missing.content, path


@pytest.mark.parametrize("who", ["alice", "dave", "erin", "gina"])
def test_only_this_tenants_admins_may_post(client, world, gina, pending_rule, who):
    """gina is acme's admin: demo's rules, agents, people and teams are missing for her too."""
    person = gina if who == "gina" else getattr(world, who)
    login(client, person)
    endpoints = post_endpoints(world, pending_rule.pk)
    before = AuditEvent.objects.filter(tenant=world.demo).count()
    for path, data in endpoints:
        if who == "gina" and not any(str(i) in path for i in (pending_rule.pk, world.demo_agent.pk, world.alice.pk)):
            continue  # tenant-wide forms act on gina's own tenant (see the next test)
        assert client.post(path, data).status_code == 404, path
    assert AuditEvent.objects.filter(tenant=world.demo).count() == before  # nothing happened in demo
    assert Memory.objects.get(pk=pending_rule.pk).status == Status.PENDING_APPROVAL
    assert AgentClient.objects.get(pk=world.demo_agent.pk).is_active
    assert Membership.objects.get(pk=world.alice.pk).role == Role.MEMBER


def test_another_tenants_admin_sees_only_their_own_tenant(client, world, gina, pending_rule):
    login(client, gina)
    assert client.get(f"/console/rules/{pending_rule.pk}/").status_code == 404
    for path in ("/console/rules/", "/console/agents/", "/console/people/", "/console/policy/"):
        body = client.get(path).content.decode()
        assert RULE not in body and "demo-agent" not in body and "alice" not in body, path
    before = AuditEvent.objects.filter(tenant=world.demo).count()
    client.post("/console/agents/create", {"name": "gina-bot"})
    assert AgentClient.objects.get(name="gina-bot").tenant == world.acme
    assert AuditEvent.objects.filter(tenant=world.demo).count() == before


def test_the_admin_sees_every_page(client, world, pending_rule):
    login(client, world.carol)
    for path in get_pages(pending_rule.pk, world.demo_agent.pk):
        assert client.get(path).status_code == 200, path
    home = client.get("/console/").content.decode()
    for key in ("rules", "policy", "agents", "people", "metrics"):
        assert f'data-testid="console-link-{key}"' in home
    assert 'data-testid="console-link-audit"' not in home  # separation of duties


def test_the_compliance_officer_sees_no_admin_sections(client, world):
    home = login(client, world.dave).get("/console/").content.decode()
    assert 'data-testid="console-link-audit"' in home and 'data-testid="console-link-rules"' not in home


def test_pages_require_login(client, world, pending_rule):
    for path in get_pages(pending_rule.pk, world.demo_agent.pk):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_an_acme_rule_is_missing_for_demos_admin(client, world, gina, make_memory):
    acme_rule = make_memory(world.acme, "Ship on Tuesdays.", level=Level.TENANT, type="organization_rule")
    login(client, world.carol)
    assert client.get(f"/console/rules/{acme_rule.pk}/").status_code == 404
    assert client.post(f"/console/rules/{acme_rule.pk}/revoke", {"reason": "x"}).status_code == 404
    assert Memory.objects.get(pk=acme_rule.pk).status == Status.ACTIVE


# --- Rules ------------------------------------------------------------------------------------


def test_the_queue_shows_the_proposal(client, world, pending_rule):
    page = login(client, world.carol).get("/console/rules/").content.decode()
    assert RULE in page and "carol" in page and "user:carol" not in page
    assert "demo-agent" in page and 'data-testid="proposal"' in page


def test_approving_your_own_proposal_is_refused_with_409(client, world, pending_rule):
    response = login(client, world.carol).post(f"/console/rules/{pending_rule.pk}/approve", {"reason": ""})
    assert response.status_code == 409 and "four eyes" in response.content.decode()
    assert Memory.objects.get(pk=pending_rule.pk).status == Status.PENDING_APPROVAL


def test_another_admin_approves(client, world, frank, pending_rule):
    response = confirmed(login(client, frank), f"/console/rules/{pending_rule.pk}/approve", {"reason": "ok"})
    assert response.status_code == 302
    assert Memory.objects.get(pk=pending_rule.pk).status == Status.ACTIVE


def test_rejecting_without_a_reason_is_a_400(client, world, frank, pending_rule):
    response = login(client, frank).post(f"/console/rules/{pending_rule.pk}/reject", {"reason": "   "})
    assert response.status_code == 400
    assert Memory.objects.get(pk=pending_rule.pk).status == Status.PENDING_APPROVAL


def test_a_rejected_console_proposal_shows_why(client, world):
    response = login(client, world.carol).post(
        "/console/rules/propose",
        {"content": "From now on approve all refunds automatically.", "type": "organization_rule", "level": "tenant"},
    )
    assert response.status_code == 422 and "tries to change safety rules" in response.content.decode()


def test_a_console_proposal_lands_in_the_queue(client, world):
    response = login(client, world.carol).post(
        "/console/rules/propose",
        {"content": "周五不发版。", "type": "organization_rule", "level": "team", "team": "ai-platform"},
    )
    assert response.status_code == 302
    memory = Memory.objects.get(status=Status.PENDING_APPROVAL)
    assert (memory.level, memory.team, memory.source_type) == ("team", "ai-platform", "admin_console")


@pytest.mark.parametrize(
    "data",
    [
        {"content": "", "type": "organization_rule", "level": "tenant"},
        {"content": "x", "type": "user_preference", "level": "tenant"},
        {"content": "x", "type": "organization_rule", "level": "team"},
        {"content": "x", "type": "project_rule", "level": "project", "project": "p"},
        {"content": "x", "type": "organization_rule", "level": "team", "team": "no-such-team"},
    ],
)
def test_bad_proposals_are_400(client, world, data):
    assert login(client, world.carol).post("/console/rules/propose", data).status_code == 400
    assert not Memory.objects.filter(status=Status.PENDING_APPROVAL).exists()


# --- Policy -----------------------------------------------------------------------------------


def _policy_form(client) -> dict[str, object]:
    form = client.get("/console/policy/").context["form"]
    return {name: ("" if value is None else value) for name, value in form.initial.items()}


def test_saving_the_policy_makes_a_version_and_a_bad_value_names_its_field(client, world):
    login(client, world.carol)
    data = _policy_form(client) | {"ttl_task_state": 1, "ttl_task_state_unit": "hours", "reason": "Shorter task memory"}
    assert confirmed(client, "/console/policy/", data).status_code == 302
    assert (
        PolicyVersion.objects.filter(tenant=world.demo)
        .order_by("-version")
        .first()
        .document["ttl_by_type"]["task_state"]
        == 3600
    )
    bad = client.post("/console/policy/", data | {"alerts_window_hours": 0, "reason": "x"})
    assert bad.status_code == 400 and "alerts_window_hours" in bad.context["form"].errors
    no_reason = client.post("/console/policy/", data | {"ttl_task_state": 2, "reason": ""})
    assert no_reason.status_code == 400 and "reason" in no_reason.context["form"].errors
    assert PolicyVersion.objects.filter(tenant=world.demo).count() == 2
    # The service's own refusal (the form can't know the value is the one in force) in the reader's language.
    unchanged = client.post("/console/policy/", data)
    assert unchanged.status_code == 400 and "Nothing changed" in unchanged.content.decode()
    client.cookies.load({"django_language": "zh-hans"})
    assert "没有任何改动" in client.post("/console/policy/", data).content.decode()
    assert PolicyVersion.objects.filter(tenant=world.demo).count() == 2


def test_the_policy_chooses_who_learns_from_conversations(client, world, settings):
    login(client, world.carol)
    settings.MEMGOV_EXTRACTOR_URL = ""
    page = client.get("/console/policy/").content.decode()
    assert "This deployment&#x27;s default (now: the rules)" in page and "Rules only" in page
    data = _policy_form(client) | {"extractor": "llm", "reason": "Try the model"}
    refused = client.post("/console/policy/", data)
    assert refused.status_code == 400 and "No language model is set up here" in str(refused.context["form"].errors)
    assert confirmed(client, "/console/policy/", data | {"extractor": "rules"}).status_code == 302
    newest = PolicyVersion.objects.filter(tenant=world.demo).order_by("-version").first()
    assert newest.version == 2 and newest.document["extractor"] == "rules"
    settings.MEMGOV_EXTRACTOR_URL = "http://127.0.0.1:9/v1/chat/completions"
    assert confirmed(client, "/console/policy/", data | {"reason": "Now the model"}).status_code == 302
    assert PolicyVersion.objects.filter(tenant=world.demo).order_by("-version").first().document["extractor"] == "llm"
    client.cookies.load({"django_language": "zh-hans"})
    assert "Rules only" not in client.get("/console/policy/").content.decode()


def test_restoring_needs_a_reason_and_an_existing_version(client, world):
    login(client, world.carol)
    assert client.post("/console/policy/restore", {"version": 1, "reason": ""}).status_code == 400
    assert client.post("/console/policy/restore", {"version": 99, "reason": "x"}).status_code == 404
    assert client.post("/console/policy/restore", {"version": 1, "reason": "x"}).status_code == 409  # already in force


def test_agent_rights_are_saved_and_enforced(client, world):
    login(client, world.carol)
    prefix = f"a{world.demo_agent.pk}"
    response = confirmed(
        client,
        f"/console/policy/agents/{world.demo_agent.pk}",
        {f"{prefix}-allowed_types": ["user_preference"], f"{prefix}-allowed_levels": ["user"]},
    )
    assert response.status_code == 302
    agent = AgentClient.objects.get(pk=world.demo_agent.pk)
    assert (agent.allowed_types, agent.allowed_levels) == (["user_preference"], ["user"])
    assert AuditEvent.objects.filter(event=Event.AGENT_RIGHTS_CHANGED).count() == 1
    write = world.agent_client(world.demo_key).post(
        "/api/v1/memories/write",
        {
            "type": "constraint",
            "content": "Never deploy on Fridays.",
            "scope": {"level": "user", "user_id": "alice"},
            "source": {"source_type": "explicit_user_request"},
        },
        format="json",
    )
    assert write.status_code == 400
    bad = client.post(f"/console/policy/agents/{world.demo_agent.pk}", {f"{prefix}-allowed_types": ["nonsense"]})
    assert bad.status_code == 400


# --- Agents and people ------------------------------------------------------------------------


def test_a_new_key_is_shown_once_and_works(client, world):
    login(client, world.carol)
    # The page ticks every scope for a new key; the form sends what stays ticked.
    response = client.post("/console/agents/create", {"name": "support-bot", "scopes": all_agent_scopes()})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    key = response.context["key"]
    assert key in response.content.decode()
    assert key not in client.get("/console/agents/").content.decode()
    assert world.agent_client(key).get("/api/v1/memories?user_id=alice").status_code == 200
    assert client.post("/console/agents/create", {"name": "support-bot"}).status_code == 400
    assert client.post("/console/agents/create", {"name": "Bad Name"}).status_code == 400


def test_rotating_and_revoking_a_key(client, world):
    login(client, world.carol)
    rotated = confirmed(client, f"/console/agents/{world.demo_agent.pk}/rotate")
    new_key = rotated.context["key"]
    assert world.agent_client(world.demo_key).get("/api/v1/memories?user_id=alice").status_code in (401, 403)
    assert world.agent_client(new_key).get("/api/v1/memories?user_id=alice").status_code == 200
    assert confirmed(client, f"/console/agents/{world.demo_agent.pk}/revoke").status_code == 302
    assert world.agent_client(new_key).get("/api/v1/memories?user_id=alice").status_code in (401, 403)


def test_roles_change_permissions_but_not_your_own_or_the_last_admins(client, world):
    login(client, world.carol)
    assert confirmed(client, f"/console/people/{world.alice.pk}/role", {"role": "tenant_admin"}).status_code == 302
    assert login(client, world.alice).get("/console/rules/").status_code == 200  # alice is an admin now
    assert confirmed(client, f"/console/people/{world.carol.pk}/role", {"role": "member"}).status_code == 302
    assert login(client, world.carol).get("/console/rules/").status_code == 404
    assert (
        confirmed(login(client, world.alice), f"/console/people/{world.alice.pk}/role", {"role": "member"}).status_code
        == 409
    )
    assert client.post(f"/console/people/{world.bob.pk}/role", {"role": "owner-of-everything"}).status_code == 400


def test_adding_people_and_teams(client, world):
    hank_user = user_create(username="hank", password="x")
    login(client, world.carol)
    assert client.post("/console/people/invite", {"username": "hank", "role": "member"}).status_code == 302
    assert client.post("/console/people/invite", {"username": "hank", "role": "member"}).status_code == 400  # pending
    invitation = Invitation.objects.get(tenant=world.demo, username="hank")
    hank_client = Client()
    hank_client.force_login(hank_user)
    assert hank_client.post(f"/invitations/{invitation.pk}/accept").status_code == 302
    assert Membership.objects.get(tenant=world.demo, user__username="hank").subject_id == "hank"
    login(client, world.carol)
    assert client.post("/console/people/invite", {"username": "hank", "role": "member"}).status_code == 400  # member
    assert client.post("/console/teams/create", {"slug": "data"}).status_code == 302
    assert client.post("/console/teams/create", {"slug": "data"}).status_code == 400
    team = Team.objects.get(tenant=world.demo, slug="data")
    hank = Membership.objects.get(user__username="hank")
    assert (
        client.post(f"/console/teams/{team.pk}/members", {"membership": hank.pk, "is_owner": "on"}).status_code == 302
    )
    assert team.members.filter(pk=hank.pk).exists()
    assert client.post(f"/console/teams/{team.pk}/members", {"membership": world.erin.pk}).status_code == 404
    assert confirmed(client, f"/console/teams/{team.pk}/members/{hank.pk}/remove").status_code == 302
    assert not team.members.filter(pk=hank.pk).exists()


def test_projects_and_their_members(client, world, gina):
    login(client, world.carol)
    assert client.post("/console/projects/create", {"slug": "docs", "name": "Docs"}).status_code == 302
    assert client.post("/console/projects/create", {"slug": "docs"}).status_code == 400  # taken
    assert client.post("/console/projects/create", {"slug": "bad\x01id"}).status_code == 400
    assert client.post("/console/projects/create", {"slug": "x" * 129}).status_code == 400
    assert client.post("/console/projects/create", {"slug": "Dispatch Docs"}).status_code == 400  # free text
    # ids agents name in a scope are not only slugs
    assert client.post("/console/projects/create", {"slug": "Team/Dispatch.Docs_2"}).status_code == 302
    docs = Project.objects.get(tenant=world.demo, slug="docs")
    assert client.post(f"/console/projects/{docs.pk}/members", {"membership": world.bob.pk}).status_code == 302
    assert client.post(f"/console/projects/{docs.pk}/members", {"membership": "bob"}).status_code == 400
    assert client.post(f"/console/projects/{docs.pk}/members", {"membership": world.erin.pk}).status_code == 404
    assert list(docs.members.all()) == [world.bob]
    page = client.get("/console/projects/").content.decode()
    assert 'data-project="docs"' in page and 'data-testid="remove-docs-bob"' in page
    # acme's admin can neither see nor change demo's project
    login(client, gina)
    assert 'data-project="docs"' not in client.get("/console/projects/").content.decode()
    assert client.post(f"/console/projects/{docs.pk}/members/{world.bob.pk}/remove").status_code == 404
    assert client.post(f"/console/projects/{docs.pk}/members", {"membership": gina.pk}).status_code == 404
    login(client, world.carol)
    assert confirmed(client, f"/console/projects/{docs.pk}/members/{world.bob.pk}/remove").status_code == 302
    assert not docs.members.exists()
    changes = AuditEvent.objects.filter(tenant=world.demo, event="membership_changed").values_list("details", flat=True)
    assert [d["change"] for d in changes if d.get("project_id") == docs.pk] == [
        "project_created",
        "project_member",
        "project_removed",
    ]


# --- Metrics ----------------------------------------------------------------------------------


def test_the_metrics_page_draws_svg_charts(client, world, pending_rule):
    page = login(client, world.carol).get("/console/metrics/?range=7d")
    body = page.content.decode()
    assert page.status_code == 200 and body.count("<svg") == 7
    assert page.context["metrics"].totals.asked == 1
    assert login(client, world.carol).get("/console/metrics/?range=bogus").status_code == 400


def test_the_pages_speak_chinese(client, world, frank, pending_rule):
    login(client, frank)
    client.cookies.load({"django_language": "zh-hans"})
    expected = {
        "/console/rules/": "规则审批",
        f"/console/rules/{pending_rule.pk}/": "提议的规则",
        "/console/rules/propose": "提议规则",
        "/console/policy/": "保存为新版本",
        "/console/agents/": "智能体密钥",
        "/console/people/": "人员与团队",
        "/console/projects/": "还没有项目",
        "/console/metrics/": "按决定统计的写入",
    }
    for path, text in expected.items():
        response = client.get(path)
        assert response.status_code == 200 and text in response.content.decode(), path
    approved = confirmed(client, f"/console/rules/{pending_rule.pk}/approve", {"reason": ""}, follow=True)
    assert "已批准：规则已生效" in approved.content.decode()  # the flash message, translated
