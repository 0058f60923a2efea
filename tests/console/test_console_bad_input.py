"""Bad input and other tenants' ids on every console page: never a 500, a 4xx that says what to fix,
nothing changed by a refused request, and nothing of tenant acme seen or changed from demo's console.

carol is demo's admin (frank the second one, who may approve carol's proposals); dave is demo's
compliance officer; gina is acme's admin. Each test takes a snapshot of every table the console can
change and compares it after the refused requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from bad_input import logged_in, page_text, refused, shown
from django.test import Client

from audit.events import Event
from audit.models import AuditEvent
from governance.models import (
    AgentClient,
    Invitation,
    Membership,
    PolicyVersion,
    Project,
    ProjectMembership,
    Team,
    TeamMembership,
)
from governance.pipeline.base import Candidate, Scope
from governance.services.projects import project_create, project_member_add
from governance.services.tenancy import agent_key_create, agent_key_revoke, membership_set, team_create, user_create
from governance.vocabulary import Level, MemoryType, Role, SourceType
from memories.models import Confirmation, ErasureReceipt, Memory, RuleDecision
from memories.services.subjects import subject_erase
from memories.services.write import memory_write

LONG = "x" * 100_000
MISSING = "0190a0a0-0000-7000-8000-000000000000"
HUGE = 10**20  # a whole number no database integer holds

REQUIRED = "This field is required."
TOO_LONG = "Ensure this value has at most"
NULL_CHAR = "Null characters are not allowed."
BAD_CHOICE = "Select a valid choice."
WHOLE_NUMBER = "Enter a whole number."


@dataclass
class Scene:
    gina: Membership  # acme's admin
    frank: Membership  # demo's second admin
    pending: Memory  # demo: proposed on carol's word, waiting for another admin
    in_force: Memory  # demo: an approved tenant rule
    alices: Memory  # demo: alice's own memory — not a rule
    acme_pending: Memory
    acme_in_force: Memory
    team: Team  # demo's ai-platform
    acme_team: Team
    project: Project
    acme_project: Project
    revoked_agent: AgentClient
    acme_receipt: ErasureReceipt


def _proposal(tenant, agent, on_behalf_of: str, content: str) -> Memory:
    result = memory_write(
        tenant_id=tenant.pk,
        candidate=Candidate(
            content=content,
            scope=Scope(Level.TENANT),
            source_type=SourceType.EXPLICIT_USER_REQUEST,
            type=MemoryType.ORGANIZATION_RULE,
        ),
        actor_label=f"agent:{agent.name}",
        agent=agent,
        on_behalf_of=on_behalf_of,
    )
    assert result.memory is not None and result.confirmation is not None, result.decision
    return result.memory


@pytest.fixture
def scene(world, make_memory) -> Scene:
    gina = membership_set(
        tenant=world.acme, user=user_create(username="gina", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )
    frank = membership_set(
        tenant=world.demo, user=user_create(username="frank", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )
    acme_team = team_create(tenant=world.acme, slug="acme-team", actor="t")
    acme_project = project_create(tenant=world.acme, slug="acme-docs", actor="t")
    project_member_add(project=acme_project, membership=world.erin, actor="t")
    project = project_create(tenant=world.demo, slug="dispatch-docs", actor="t")
    project_member_add(project=project, membership=world.alice, actor="t")
    revoked_agent, _key = agent_key_create(tenant=world.demo, name="old-bot", actor="t")
    agent_key_revoke(client=revoked_agent, actor="t")
    rule = {"level": Level.TENANT, "type": "organization_rule"}
    return Scene(
        gina=gina,
        frank=frank,
        pending=_proposal(world.demo, world.demo_agent, "carol", "All repositories have a CODEOWNERS file."),
        in_force=make_memory(world.demo, "Commit messages are in English.", **rule),
        alices=make_memory(world.demo, "Alice prefers tables", user_id="alice"),
        acme_pending=_proposal(world.acme, world.acme_agent, "gina", "Acme ships on Tuesdays."),
        acme_in_force=make_memory(world.acme, "Acme secret rule text.", **rule),
        team=Team.objects.get(tenant=world.demo, slug="ai-platform"),
        acme_team=acme_team,
        project=project,
        acme_project=acme_project,
        revoked_agent=revoked_agent,
        acme_receipt=subject_erase(tenant_id=world.acme.pk, user_id="erin-old", actor="t"),
    )


def _state() -> dict[str, Any]:
    """Every row the console can change, to compare before and after refused requests."""
    return {
        "memories": sorted(Memory.objects.values_list("pk", "status", "version")),
        "confirmations": sorted(Confirmation.objects.values_list("pk", "state")),
        "decisions": RuleDecision.objects.count(),
        "audit_events": AuditEvent.objects.count(),
        "policy_versions": sorted(PolicyVersion.objects.values_list("tenant_id", "version")),
        "agents": sorted(
            AgentClient.objects.values_list("pk", "name", "key_hash", "revoked_at", "allowed_types", "allowed_levels")
        ),
        "memberships": sorted(Membership.objects.values_list("pk", "tenant_id", "role", "subject_id")),
        "invitations": sorted(Invitation.objects.values_list("pk", "state")),
        "teams": sorted(Team.objects.values_list("pk", "tenant_id", "slug", "name")),
        "team_members": sorted(TeamMembership.objects.values_list("team_id", "membership_id", "is_owner")),
        "projects": sorted(Project.objects.values_list("pk", "tenant_id", "slug", "name")),
        "project_members": sorted(ProjectMembership.objects.values_list("project_id", "membership_id")),
    }


def _refused(client: Client, path: str, data: dict[str, Any], message: str, *, status: int = 400) -> str:
    """POST ``data``: the status, the message the person can act on, and not a row changed."""
    return refused(client, path, data, message, state=_state, status=status)


# --- Methods --------------------------------------------------------------------------------------

ADMIN_GETS = [
    "/console/",
    "/console/rules/",
    "/console/rules/{pending}/",
    "/console/agents/",
    "/console/people/",
    "/console/projects/",
    "/console/metrics/",
]
ADMIN_POSTS = [
    "/console/rules/{pending}/approve",
    "/console/rules/{pending}/reject",
    "/console/rules/{in_force}/revoke",
    "/console/policy/restore",
    "/console/policy/agents/{agent}",
    "/console/agents/create",
    "/console/agents/{agent}/revoke",
    "/console/agents/{agent}/rotate",
    "/console/people/invite",
    "/console/people/{alice}/role",
    "/console/teams/create",
    "/console/teams/{team}/members",
    "/console/teams/{team}/members/{alice}/remove",
    "/console/projects/create",
    "/console/projects/{project}/members",
    "/console/projects/{project}/members/{alice}/remove",
]
ADMIN_FORMS = ["/console/rules/propose", "/console/policy/"]


def _path(template: str, world, scene: Scene) -> str:
    return template.format(
        pending=scene.pending.pk,
        in_force=scene.in_force.pk,
        agent=world.demo_agent.pk,
        alice=world.alice.pk,
        team=scene.team.pk,
        project=scene.project.pk,
    )


def test_admin_pages_answer_405_to_the_wrong_method(world, scene):
    carol = logged_in(world.carol)
    before = _state()
    for template in ADMIN_GETS:
        path = _path(template, world, scene)
        assert carol.get(path).status_code == 200, path
        for method in ("post", "put", "delete"):
            assert getattr(carol, method)(path).status_code == 405, (method, path)
    for template in ADMIN_POSTS:
        path = _path(template, world, scene)
        for method in ("get", "put", "delete"):
            assert getattr(carol, method)(path).status_code == 405, (method, path)
    for path in ADMIN_FORMS:
        for method in ("put", "patch", "delete"):
            assert getattr(carol, method)(path).status_code == 405, (method, path)
    assert _state() == before


def test_compliance_pages_answer_405_to_the_wrong_method(world, scene):
    dave = logged_in(world.dave)
    before = _state()
    for path in ("/console/", "/console/audit/", "/console/subjects/"):
        for method in ("post", "put", "delete"):
            assert getattr(dave, method)(path).status_code == 405, (method, path)
    for method in ("put", "patch", "delete"):
        assert getattr(dave, method)("/console/audit/export").status_code == 405, method
    for method in ("get", "put"):
        assert getattr(dave, method)("/console/subjects/export").status_code == 405, method
    assert _state() == before


# --- Another tenant's ids, and ids that don't exist ----------------------------------------------


def _all_missing(client: Client, requests: list[tuple[str, str, dict[str, Any] | None]]) -> None:
    missing_page = client.get("/console/no-such-page/").content
    before = _state()
    for method, path, data in requests:
        response = getattr(client, method)(path, data)
        assert (response.status_code, response.content) == (404, missing_page), (method, path)
    assert _state() == before


def test_rules_of_another_tenant_a_persons_memory_and_missing_ids_are_404(world, scene):
    """An admin's rule pages reach their own tenant's shared rules only — not acme's, nor alice's memory."""
    requests: list[tuple[str, str, dict[str, Any] | None]] = []
    for memory_id in (scene.acme_pending.pk, scene.acme_in_force.pk, scene.alices.pk, MISSING):
        requests += [
            ("get", f"/console/rules/{memory_id}/", None),
            ("post", f"/console/rules/{memory_id}/approve", {"reason": "ok"}),
            ("post", f"/console/rules/{memory_id}/reject", {"reason": "no"}),
            ("post", f"/console/rules/{memory_id}/revoke", {"reason": "no"}),
        ]
    requests += [("get", "/console/rules/not-a-uuid/", None), ("post", "/console/rules/1/approve", {})]
    _all_missing(logged_in(scene.frank), requests)
    page = page_text(logged_in(scene.frank).get("/console/rules/"))
    assert "Acme ships on Tuesdays." not in page and "Acme secret rule text." not in page
    assert "Alice prefers tables" not in page


def test_agents_of_another_tenant_revoked_and_missing_ones_are_404(world, scene):
    rights = {"allowed_types": ["user_preference"]}
    requests: list[tuple[str, str, dict[str, Any] | None]] = []
    for agent_id in (world.acme_agent.pk, 0, 999_999, HUGE):
        requests += [
            ("post", f"/console/policy/agents/{agent_id}", {f"a{agent_id}-{k}": v for k, v in rights.items()}),
            ("post", f"/console/agents/{agent_id}/revoke", {}),
            ("post", f"/console/agents/{agent_id}/rotate", {}),
        ]
    requests.append(("post", f"/console/policy/agents/{scene.revoked_agent.pk}", {}))
    requests.append(("post", "/console/agents/-1/revoke", {}))
    carol = logged_in(world.carol)
    _all_missing(carol, requests)
    assert "acme-agent" not in page_text(carol.get("/console/agents/"))
    assert "acme-agent" not in page_text(carol.get("/console/policy/"))


def test_people_teams_and_projects_of_another_tenant_and_missing_ids_are_404(world, scene):
    alice, erin, dave = world.alice.pk, world.erin.pk, world.dave.pk
    team, acme_team, project, acme_project = scene.team.pk, scene.acme_team.pk, scene.project.pk, scene.acme_project.pk
    requests: list[tuple[str, str, dict[str, Any] | None]] = [
        ("post", f"/console/people/{erin}/role", {"role": "tenant_admin"}),
        ("post", f"/console/people/{scene.gina.pk}/role", {"role": "member"}),
        ("post", "/console/people/999999/role", {"role": "member"}),
        ("post", f"/console/people/{HUGE}/role", {"role": "member"}),
        ("post", f"/console/teams/{acme_team}/members", {"membership": alice}),
        ("post", f"/console/teams/{team}/members", {"membership": erin}),
        ("post", f"/console/teams/{team}/members", {"membership": 999_999}),
        ("post", f"/console/teams/{team}/members", {"membership": HUGE}),
        ("post", f"/console/teams/{HUGE}/members", {"membership": alice}),
        ("post", f"/console/teams/{acme_team}/members/{erin}/remove", {}),
        ("post", f"/console/teams/{team}/members/{erin}/remove", {}),
        ("post", f"/console/teams/{team}/members/{dave}/remove", {}),  # dave is not on the team
        ("post", f"/console/teams/{team}/members/{HUGE}/remove", {}),
        ("post", f"/console/projects/{acme_project}/members", {"membership": alice}),
        ("post", f"/console/projects/{project}/members", {"membership": erin}),
        ("post", f"/console/projects/{project}/members", {"membership": HUGE}),
        ("post", f"/console/projects/{HUGE}/members", {"membership": alice}),
        ("post", f"/console/projects/{acme_project}/members/{erin}/remove", {}),
        ("post", f"/console/projects/{project}/members/{erin}/remove", {}),
        ("post", f"/console/projects/{project}/members/{dave}/remove", {}),  # dave is not a member
        ("post", f"/console/projects/999999/members/{alice}/remove", {}),
    ]
    carol = logged_in(world.carol)
    _all_missing(carol, requests)
    people, projects = page_text(carol.get("/console/people/")), page_text(carol.get("/console/projects/"))
    assert "erin" not in people and "gina" not in people and "acme-team" not in people
    assert "acme-docs" not in projects and "erin" not in projects


def test_the_compliance_officer_finds_nothing_of_another_tenant(world, scene):
    dave = logged_in(world.dave)
    for params in (
        {"memory": str(scene.acme_in_force.pk)},
        {"subject": "erin"},
        {"actor": "agent:acme-agent"},
        {"actor": "gina"},
    ):
        response = dave.get("/console/audit/", params)
        assert response.status_code == 200 and response.context["page"].paginator.count == 0, params
    lookup = page_text(dave.get("/console/subjects/", {"subject": "erin"}))
    assert "Nothing is held about this subject id" in lookup and 'data-testid="subject-export"' not in lookup
    assert str(scene.acme_receipt.pk) not in page_text(dave.get("/console/subjects/"))
    missing = page_text(dave.get("/console/no-such-page/"))
    before = _state()
    for subject in ("erin", "erin-old", "gina", "nobody"):
        response = dave.post("/console/subjects/export", {"subject": subject})
        assert (response.status_code, page_text(response)) == (404, missing), subject
    assert _state() == before


# --- Compliance: bad query strings and forms -------------------------------------------------------

DATE_HELP = "Use an ISO 8601 date or time, with From before To."
PAGE_HELP = "Page numbers are whole numbers from 1."


def test_a_bad_audit_search_is_a_400_naming_what_to_fix(world):
    dave = logged_in(world.dave)
    for params, message in [
        ({"memory": "not-a-uuid"}, "Enter a valid UUID."),
        ({"memory": LONG}, "Enter a valid UUID."),
        ({"event": "memory_eaten"}, BAD_CHOICE),
        ({"actor": LONG}, TOO_LONG),
        ({"subject": "alice\x00"}, NULL_CHAR),
        ({"start": "soon"}, DATE_HELP),
        ({"start": "2025-13-45"}, DATE_HELP),
        ({"end": "2025-02-30"}, DATE_HELP),
        ({"start": "0001-01-01T00:00:00+14:00"}, DATE_HELP),  # before the first representable moment
        ({"end": "9999-12-31"}, DATE_HELP),  # "through that day" ends past the last one
        ({"start": "2025-03-02", "end": "2025-03-01"}, DATE_HELP),
        ({"start": LONG}, TOO_LONG),
        ({"page": "abc"}, PAGE_HELP),
        ({"page": "0"}, PAGE_HELP),
        ({"page": "-1"}, PAGE_HELP),
        ({"page": "1.5"}, PAGE_HELP),
        ({"page": "9" * 100_000}, PAGE_HELP),
    ]:
        response = dave.get("/console/audit/", params)
        assert response.status_code == 400, shown(params)
        assert message in page_text(response), shown(params)
    for params in ({"page": "999"}, {"page": str(HUGE)}, {"page": ""}, {"utm_source": "mail"}, {"event": ""}):
        response = dave.get("/console/audit/", params)  # past the end: the last page; unknown: ignored
        assert response.status_code == 200 and response.context["page"] is not None, params


def test_a_bad_export_form_is_a_400_and_exports_nothing(world):
    dave = logged_in(world.dave)
    for data, message in [
        ({}, REQUIRED),
        ({"format": ""}, REQUIRED),
        ({"format": "xml"}, BAD_CHOICE),
        ({"format": "jsonl", "start": "soon"}, DATE_HELP),
        ({"format": "csv", "end": LONG}, TOO_LONG),
        ({"format": "jsonl", "start": "2025-03-02", "end": "2025-03-01"}, DATE_HELP),
    ]:
        _refused(dave, "/console/audit/export", data, message)
    assert not AuditEvent.objects.filter(event=Event.AUDIT_EXPORTED).exists()


def test_a_bad_subject_lookup_or_export_is_a_400_naming_what_to_fix(world):
    dave = logged_in(world.dave)
    control = "A subject id has no control characters."
    for params, message in [
        ({"subject": ""}, REQUIRED),
        ({"subject": "s" * 129}, TOO_LONG),
        ({"subject": "alice\x01"}, control),
        ({"subject": "alice\x00"}, NULL_CHAR),
        ({"page": "abc"}, PAGE_HELP),
        ({"subject": "alice", "page": "0"}, PAGE_HELP),
    ]:
        response = dave.get("/console/subjects/", params)
        assert response.status_code == 400 and message in page_text(response), shown(params)
    for data, message in [
        ({}, REQUIRED),
        ({"subject": ""}, REQUIRED),
        ({"subject": LONG}, TOO_LONG),
        ({"subject": "alice\x1b[2J"}, control),
    ]:
        _refused(dave, "/console/subjects/export", data, message)


def test_paging_through_erasure_receipts_needs_no_subject(world):
    for number in range(51):
        subject_erase(tenant_id=world.demo.pk, user_id=f"gone-{number:02}", actor="t")
    dave = logged_in(world.dave)
    first = page_text(dave.get("/console/subjects/"))
    assert "?page=2" in first
    second = dave.get("/console/subjects/", {"page": "2"})
    assert second.status_code == 200 and "gone-00" in page_text(second) and "gone-00" not in first


# --- Admin: bad forms -----------------------------------------------------------------------------


def _propose(**data: str) -> dict[str, str]:
    return {"content": "Ship on Tuesdays.", "type": "organization_rule", "level": "tenant"} | data


def test_a_bad_proposal_is_a_400_naming_what_to_fix(world, scene):
    carol = logged_in(world.carol)
    for data, message in [
        ({}, REQUIRED),
        (_propose(content=""), REQUIRED),
        (_propose(content="   "), REQUIRED),
        (_propose(content=LONG), TOO_LONG),
        (_propose(content="Ship\x00"), NULL_CHAR),
        (_propose(type="user_preference"), BAD_CHOICE),
        (_propose(type=""), REQUIRED),
        (_propose(level="galaxy"), BAD_CHOICE),
        (_propose(level="team"), "Choose the team the rule applies to."),
        (_propose(level="team", team="acme-team"), BAD_CHOICE),
        (_propose(level="team", team=LONG), BAD_CHOICE),
        (_propose(level="project"), "Choose the project the rule applies to."),
        (_propose(level="project", project="no-such-project"), BAD_CHOICE),
        (_propose(level="project", project="acme-docs"), BAD_CHOICE),
        (_propose(type="project_rule", level="project", project="dispatch-docs"), "A project&#x27;s own rule"),
    ]:
        _refused(carol, "/console/rules/propose", data, message)


def test_a_project_rule_can_be_proposed_for_any_project_id_of_the_tenant(world, scene):
    project_create(tenant=world.demo, slug="Team/Dispatch.Docs_2", actor="t")
    response = logged_in(world.carol).post(
        "/console/rules/propose", _propose(level="project", project="Team/Dispatch.Docs_2")
    )
    assert response.status_code == 302
    assert Memory.objects.get(project="Team/Dispatch.Docs_2").status == "pending_approval"


def test_a_bad_rule_decision_is_a_400_naming_what_to_fix(world, scene):
    frank = logged_in(scene.frank)
    for action, data, message in [
        ("approve", {"reason": LONG}, TOO_LONG),
        ("reject", {}, REQUIRED),
        ("reject", {"reason": "   "}, REQUIRED),
        ("reject", {"reason": LONG}, TOO_LONG),
        ("revoke", {}, REQUIRED),
        ("revoke", {"reason": "\t"}, REQUIRED),
        ("revoke", {"reason": LONG}, TOO_LONG),
    ]:
        rule = scene.in_force if action == "revoke" else scene.pending
        _refused(frank, f"/console/rules/{rule.pk}/{action}", data, message)


def test_a_bad_policy_is_a_400_naming_the_field(world, scene):
    carol = logged_in(world.carol)
    form = carol.get("/console/policy/").context["form"]
    valid = {name: ("" if value is None else value) for name, value in form.initial.items()} | {"reason": "tighter"}
    at_least_1 = "Ensure this value is greater than or equal to 1."
    at_most = "Ensure this value is less than or equal to"
    for changes, message in [
        ({"ttl_task_state": "abc"}, WHOLE_NUMBER),
        ({"ttl_task_state": "-5"}, at_least_1),
        ({"ttl_task_state": "1.5"}, WHOLE_NUMBER),
        ({"ttl_task_state": "9" * 30}, at_most),  # would overflow every expiry date
        ({"ttl_user_preference": "9" * 100_000}, WHOLE_NUMBER),
        ({"high_sensitivity_ttl": "0"}, at_least_1),
        ({"pending_confirmation_ttl": str(10**12)}, at_most),
        ({"ttl_task_state": "36501", "ttl_task_state_unit": "days"}, "At most 36500 days."),
        ({"ttl_task_state_unit": "weeks"}, "Select a valid choice"),
        ({"max_unused_days": str(10**9)}, at_most),
        ({"purge_grace_days": ""}, REQUIRED),
        ({"min_inference_confidence": "nan"}, "Enter a number."),
        ({"min_inference_confidence": "inf"}, "Enter a number."),
        ({"min_inference_confidence": "2"}, "Ensure this value is less than or equal to 1."),
        ({"alerts_window_hours": "25"}, "alerts.window_hours must be a whole number of at least 1 and at most 24"),
        ({"alerts_write_spike_factor": "x"}, "Enter a number."),
        ({"reason": ""}, REQUIRED),
        ({"reason": "   "}, REQUIRED),
        ({"reason": LONG}, TOO_LONG),
    ]:
        page = _refused(carol, "/console/policy/", valid | changes, message)
        assert "The policy was not saved." in page, shown(changes)
    _refused(carol, "/console/policy/", {}, "The policy was not saved.")


def test_a_bad_restore_says_what_to_fix(world, scene):
    carol = logged_in(world.carol)
    for data, status, message in [
        ({}, 400, "Choose a version to restore."),
        ({"version": "abc", "reason": "back"}, 400, "Choose a version to restore."),
        ({"version": "0", "reason": "back"}, 400, "Choose a version to restore."),
        ({"version": "1", "reason": ""}, 400, "Give a reason to restore a version."),
        ({"version": "1", "reason": "  "}, 400, "Give a reason to restore a version."),
        ({"version": "1", "reason": LONG}, 400, TOO_LONG),
        ({"version": "99", "reason": "back"}, 404, ""),
        ({"version": "9" * 30, "reason": "back"}, 404, ""),
        ({"version": "1", "reason": "back"}, 409, "That version is the policy in force already."),
    ]:
        _refused(carol, "/console/policy/restore", data, message, status=status)


def test_bad_agent_rights_are_a_400_naming_the_choice(world, scene):
    carol, agent = logged_in(world.carol), world.demo_agent.pk
    for field, values in [
        ("allowed_types", ["user_preference", "nonsense"]),
        ("allowed_levels", [LONG]),
        ("allowed_types", ["x\x00"]),
    ]:
        _refused(carol, f"/console/policy/agents/{agent}", {f"a{agent}-{field}": values}, BAD_CHOICE)


def test_a_bad_agent_name_is_a_400_and_makes_no_key(world, scene):
    carol = logged_in(world.carol)
    for name, message in [
        (None, REQUIRED),
        ("", REQUIRED),
        ("Support Bot", "Lowercase letters, digits"),
        ("-bot", "Lowercase letters, digits"),
        ("b" * 101, TOO_LONG),
        (LONG, TOO_LONG),
        ("bot\x00", NULL_CHAR),
        ("demo-agent", "An agent with this name exists already."),
        ("old-bot", "An agent with this name exists already."),  # revoked, but the name is taken
    ]:
        _refused(carol, "/console/agents/create", {} if name is None else {"name": name}, message)


def test_bad_people_and_roles_are_a_400_naming_what_to_fix(world, scene):
    user_create(username="hank", password="x")
    carol = logged_in(world.carol)
    for data, message in [
        ({}, REQUIRED),
        ({"username": "", "role": "member"}, REQUIRED),
        ({"username": LONG, "role": "member"}, TOO_LONG),
        ({"username": "hank\x00", "role": "member"}, NULL_CHAR),
        ({"username": "hank", "role": "owner-of-everything"}, BAD_CHOICE),
        ({"username": "hank"}, REQUIRED),
        ({"username": "hank", "role": "member", "subject_id": "h\x01"}, "No control characters."),
        ({"username": "hank", "role": "member", "subject_id": LONG}, TOO_LONG),
        ({"username": "hank", "role": "member", "subject_id": "alice"}, "already has that subject id"),
        ({"username": "alice", "role": "member"}, "This person is already in the tenant"),
    ]:
        _refused(carol, "/console/people/invite", data, message)
    for data in ({}, {"role": ""}, {"role": "god"}, {"role": LONG}):
        _refused(carol, f"/console/people/{world.alice.pk}/role", data, "Choose a role.")


def test_bad_teams_and_projects_are_a_400_naming_what_to_fix(world, scene):
    carol = logged_in(world.carol)
    for data, message in [
        ({}, REQUIRED),
        ({"slug": ""}, REQUIRED),
        ({"slug": "Data Team"}, "Enter a valid “slug”"),
        ({"slug": "t" * 64}, TOO_LONG),
        ({"slug": LONG}, TOO_LONG),
        ({"slug": "data", "name": LONG}, TOO_LONG),
        ({"slug": "ai-platform"}, "A team with that slug exists already."),
    ]:
        _refused(carol, "/console/teams/create", data, message)
    for data, message in [
        ({}, REQUIRED),
        ({"slug": ""}, REQUIRED),
        ({"slug": "dispatch docs"}, "Letters, digits and _ . : @ / + = # - only."),
        ({"slug": "p" * 129}, TOO_LONG),
        ({"slug": "docs\x00"}, NULL_CHAR),
        ({"slug": "docs", "name": LONG}, TOO_LONG),
        ({"slug": "dispatch-docs"}, "A project with that id exists already."),
    ]:
        _refused(carol, "/console/projects/create", data, message)
    for path in (f"/console/teams/{scene.team.pk}/members", f"/console/projects/{scene.project.pk}/members"):
        for data in ({}, {"membership": ""}, {"membership": "bob"}, {"membership": "0"}, {"membership": LONG}):
            _refused(carol, path, data, "Choose a person.")


def test_an_unknown_metrics_range_is_a_400_that_lists_the_ranges(world):
    carol = logged_in(world.carol)
    for params in ({"range": "bogus"}, {"range": LONG}, {"range": "7D"}):
        response = carol.get("/console/metrics/", params)
        assert response.status_code == 400, shown(params)
        assert "Choose a range: 48h, 7d, 30d." in page_text(response), shown(params)
    for params in ({}, {"range": ""}, {"range": "30d"}, {"utm_source": "mail"}):
        assert carol.get("/console/metrics/", params).status_code == 200, params
    carol.cookies.load({"django_language": "zh-hans"})
    assert "请选择时间范围：48h, 7d, 30d。" in page_text(carol.get("/console/metrics/", {"range": "bogus"}))
