"""Plan, then yes, for every console action that removes, revokes or changes something (console.plans).

Each action's first POST is its plan: it names the object and each change before → after, and changes
nothing. The "yes" applies exactly that; a "yes" for an object that changed since answers 409 with the
plan as it is now and changes nothing more; a forged token does nothing; another tenant's admin and a
member get the missing page for the plan and the "yes" alike."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from audit.models import AuditEvent
from governance.models import AgentClient, Invitation, Membership, PolicyVersion, Project, Team, TeamMembership
from governance.services.invitations import invitation_create
from governance.services.policy import policy_version_create
from governance.services.projects import project_create, project_member_add
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Role, Status
from memories.models import Memory
from tests.console.conftest import RULE
from tests.plans import plan_form, plan_of


@dataclass
class Action:
    path: str
    data: dict[str, object]
    names: list[str]  # what the plan page must say (the object, before, after)
    done: Callable[[], bool]  # whether the change has happened
    meanwhile: Callable[[], None]  # another admin changes the object after the plan was shown


def _policy_data(client) -> dict[str, object]:
    form = client.get("/console/policy/").context["form"]
    return {name: ("" if value is None else value) for name, value in form.initial.items()}


@pytest.fixture
def admin(client, world):
    """frank: demo's second admin (pending_rule was proposed for carol, so frank may approve it)."""
    frank = membership_set(
        tenant=world.demo, user=user_create(username="frank", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )
    client.force_login(frank.user)
    return client


def actions(world, client, rule) -> dict[str, Action]:
    agent = world.demo_agent
    team = Team.objects.get(tenant=world.demo, slug="ai-platform")
    project = project_create(tenant=world.demo, slug="docs", name="Docs", actor="t")
    project_member_add(project=project, membership=world.bob, actor="t")
    invitation = invitation_create(tenant=world.demo, username="hank", role="member", subject_id="", acting=world.carol)
    policy_version_create(
        tenant=world.demo,
        document=PolicyVersion.objects.filter(tenant=world.demo).latest("version").document | {"max_unused_days": 45},
        reason="t",
        actor="t",
    )
    policy = _policy_data(client)

    def agent_now() -> AgentClient:
        return AgentClient.objects.get(pk=agent.pk)

    return {
        "approve": Action(
            f"/console/rules/{rule.pk}/approve",
            {"reason": ""},
            [RULE, "Waiting for an admin", "In force"],
            lambda: Memory.objects.get(pk=rule.pk).status == Status.ACTIVE,
            lambda: Memory.objects.filter(pk=rule.pk).update(version=9),
        ),
        "reject": Action(
            f"/console/rules/{rule.pk}/reject",
            {"reason": "Not ours"},
            [RULE, "Waiting for an admin", "Deleted", "Not ours"],
            lambda: Memory.objects.get(pk=rule.pk).status == Status.DELETED,
            lambda: Memory.objects.filter(pk=rule.pk).update(version=9),
        ),
        "revoke-key": Action(
            f"/console/agents/{agent.pk}/revoke",
            {},
            ["demo-agent", agent.key_prefix, "Works", "Revoked"],
            lambda: not agent_now().is_active,
            lambda: AgentClient.objects.filter(pk=agent.pk).update(scopes=["memory.read"]),
        ),
        "rotate-key": Action(
            f"/console/agents/{agent.pk}/rotate",
            {},
            ["demo-agent", agent.key_prefix, "A new key, shown once"],
            lambda: agent_now().key_prefix != agent.key_prefix,
            lambda: AgentClient.objects.filter(pk=agent.pk).update(scopes=["memory.read"]),
        ),
        "scopes": Action(
            f"/console/agents/{agent.pk}/scopes",
            {f"s{agent.pk}-scopes": ["memory.read"]},
            ["demo-agent", "memory.write", "memory.read"],
            lambda: agent_now().scopes == ["memory.read"],
            lambda: AgentClient.objects.filter(pk=agent.pk).update(scopes=["memory.read", "sessions.read"]),
        ),
        "rights": Action(
            f"/console/policy/agents/{agent.pk}",
            {f"a{agent.pk}-allowed_types": ["user_preference"]},
            ["demo-agent", "whatever the policy allows", "Preference"],
            lambda: agent_now().allowed_types == ["user_preference"],
            lambda: AgentClient.objects.filter(pk=agent.pk).update(allowed_levels=["user"]),
        ),
        "role": Action(
            f"/console/people/{world.alice.pk}/role",
            {"role": "compliance_officer"},
            ["alice", "Member", "Compliance officer"],
            lambda: Membership.objects.get(pk=world.alice.pk).role == Role.COMPLIANCE_OFFICER,
            lambda: Membership.objects.filter(pk=world.alice.pk).update(role=Role.TEAM_OWNER),
        ),
        "withdraw": Action(
            f"/console/people/invitations/{invitation.pk}/withdraw",
            {},
            ["hank", "Open", "Withdrawn"],
            lambda: Invitation.objects.get(pk=invitation.pk).state == Invitation.State.WITHDRAWN,
            lambda: Invitation.objects.filter(pk=invitation.pk).update(role="compliance_officer"),
        ),
        "team-remove": Action(
            f"/console/teams/{team.pk}/members/{world.alice.pk}/remove",
            {},
            ["alice", "ai-platform", "Not on it"],
            lambda: not TeamMembership.objects.filter(team=team, membership=world.alice).exists(),
            lambda: TeamMembership.objects.filter(team=team, membership=world.alice).update(is_owner=True),
        ),
        "project-remove": Action(
            f"/console/projects/{project.pk}/members/{world.bob.pk}/remove",
            {},
            ["bob", "docs", "Not in it"],
            lambda: not Project.objects.get(pk=project.pk).members.exists(),
            lambda: Project.objects.filter(pk=project.pk).update(name="Docs 2"),  # not part of the plan: 302
        ),
        "policy-save": Action(
            "/console/policy/",
            policy | {"max_unused_days": 60, "reason": "Keep memories longer"},
            ["45", "60", "Keep memories longer"],
            lambda: PolicyVersion.objects.filter(tenant=world.demo).latest("version").document["max_unused_days"] == 60,
            lambda: policy_version_create(
                tenant=world.demo,
                document=PolicyVersion.objects.filter(tenant=world.demo).latest("version").document
                | {"purge_grace_days": 3},
                reason="meanwhile",
                actor="t",
            ),
        ),
        "policy-restore": Action(
            "/console/policy/restore",
            {"version": 1, "reason": "Back to the start"},
            ["45", "Back to the start"],
            lambda: (
                PolicyVersion.objects.filter(tenant=world.demo).latest("version").document
                == PolicyVersion.objects.get(tenant=world.demo, version=1).document
            ),
            lambda: policy_version_create(
                tenant=world.demo,
                document=PolicyVersion.objects.filter(tenant=world.demo).latest("version").document
                | {"purge_grace_days": 3},
                reason="meanwhile",
                actor="t",
            ),
        ),
    }


NAMES = [
    "approve",
    "reject",
    "revoke-key",
    "rotate-key",
    "scopes",
    "rights",
    "role",
    "withdraw",
    "team-remove",
    "project-remove",
    "policy-save",
    "policy-restore",
]


def _yes(client, response, **kwargs):
    action, fields = plan_form(response)
    return client.post(action, fields, **kwargs)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_plan_names_the_change_and_changes_nothing_until_yes(admin, world, pending_rule, name, language):
    action = actions(world, admin, pending_rule)[name]
    admin.cookies.load({"django_language": language})
    before = AuditEvent.objects.filter(tenant=world.demo).count()
    plan = admin.post(action.path, action.data)
    plan_of(plan)
    text = plan.content.decode()
    if language == "en":
        for words in action.names:
            assert words in text.replace("&#x27;", "'"), (name, words)
    else:
        assert "取消" in text and 'data-testid="plan-yes"' in text and "What will change" not in text
    assert not action.done() and AuditEvent.objects.filter(tenant=world.demo).count() == before
    done = _yes(admin, plan)
    assert done.status_code in (200, 302), done.content[:300]
    assert action.done(), name


@pytest.mark.parametrize("name", [n for n in NAMES if n != "project-remove"])
def test_a_yes_for_something_that_changed_since_changes_nothing(admin, world, pending_rule, name):
    action = actions(world, admin, pending_rule)[name]
    plan = admin.post(action.path, action.data)
    plan_of(plan)
    action.meanwhile()
    stale = _yes(admin, plan)
    assert stale.status_code == 409 and 'data-testid="plan-stale"' in stale.content.decode(), name
    assert not action.done(), name
    assert _yes(admin, stale).status_code in (200, 302) and action.done(), name  # the fresh plan, confirmed


@pytest.mark.parametrize("name", NAMES)
def test_a_forged_yes_changes_nothing(admin, world, pending_rule, name):
    action = actions(world, admin, pending_rule)[name]
    forged = admin.post(action.path, {**action.data, "confirm": "yes", "plan": "0" * 32})
    assert forged.status_code == 409 and not action.done(), name


@pytest.mark.parametrize("who", ["gina", "alice", "dave"])
def test_who_must_not_see_it_gets_the_missing_page_for_the_plan_and_the_yes(
    admin, client, world, pending_rule, gina, who
):
    found = actions(world, admin, pending_rule)
    plans = {name: plan_form(admin.post(found[name].path, found[name].data))[1] for name in NAMES}
    person = gina if who == "gina" else getattr(world, who)
    client.force_login(person.user)
    before = AuditEvent.objects.filter(tenant=world.demo).count()
    for name in NAMES:
        if who == "gina" and name in ("policy-save", "policy-restore"):
            continue  # tenant-wide: gina's own tenant's policy (tests/page_inventory covers it)
        action = found[name]
        assert client.post(action.path, action.data).status_code == 404, (who, name)
        assert client.post(action.path, plans[name]).status_code == 404, (who, name)
        assert not action.done(), (who, name)
    assert AuditEvent.objects.filter(tenant=world.demo).count() == before


def test_cancel_goes_back_and_changes_nothing(admin, world, pending_rule):
    action = actions(world, admin, pending_rule)["revoke-key"]
    plan = admin.post(action.path, action.data).content.decode()
    assert 'href="/console/agents/" data-testid="plan-cancel"' in plan
    assert admin.get("/console/agents/").status_code == 200 and not action.done()


def test_a_plan_that_would_change_nothing_offers_no_yes(admin, world, pending_rule):
    agent = world.demo_agent
    same = admin.post(f"/console/agents/{agent.pk}/scopes", {f"s{agent.pk}-scopes": list(agent.scopes)})
    assert same.status_code == 200 and "Nothing would change." in same.content.decode()
    assert 'data-testid="plan-yes"' not in same.content.decode()


def test_a_plan_shown_to_one_admin_confirms_nothing_for_another(admin, world, pending_rule):
    from django.test import Client

    action = actions(world, admin, pending_rule)["revoke-key"]
    token = plan_of(admin.post(action.path, action.data))  # shown to frank
    carol = Client()
    carol.force_login(world.carol.user)
    replayed = carol.post(action.path, {**action.data, "confirm": "yes", "plan": token})
    assert replayed.status_code == 409 and not action.done()
    assert admin.post(action.path, {**action.data, "confirm": "yes", "plan": token}).status_code in (200, 302)
    assert action.done()
