"""The shared rules that shape a person's answers, listed read-only in My memories — what, why it applies,
who approved it — in both languages; rules of a team or project the person is not in never appear."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from governance.services.projects import project_create
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Level, MemoryType, Role
from memories.services.rules import rule_approve, rule_propose

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def approved_rule(world, approver, content: str, **scope) -> str:
    result = rule_propose(tenant_id=world.demo.pk, proposer=world.carol, content=content, **scope)
    assert result.memory is not None and result.confirmation is not None, result.decision
    rule_approve(tenant_id=world.demo.pk, memory_id=result.memory.pk, actor=f"user:{approver}")
    return str(result.memory.pk)


@pytest.mark.parametrize(
    ("lang", "org", "team", "approved"),
    [
        ("en", "Applies to everyone in your organization", "Applies because you are in the team", "Approved by"),
        ("zh", "适用于你所在组织的每个人", "适用，因为你在团队", "批准人"),
    ],
)
def test_rules_that_shape_my_answers_are_listed_read_only(page, login, live_server, world, make_memory, lang, org,
                                                          team, approved):  # fmt: skip
    membership_set(tenant=world.demo, user=user_create(username="frank", password="x" * 16), role=Role.TENANT_ADMIN,
                   actor="test")  # fmt: skip
    org_rule = approved_rule(world, "frank", "Commit messages are written in English.",
                             type=MemoryType.ORGANIZATION_RULE, level=Level.TENANT)  # fmt: skip
    team_rule = approved_rule(world, "frank", "Deploys of the platform wait for a green build.",
                              type=MemoryType.PROJECT_RULE, level=Level.TEAM, team="ai-platform")  # fmt: skip
    project_create(tenant=world.demo, slug="skunkworks", name="Skunkworks", actor="test")
    hidden = str(make_memory(world.demo, "Skunkworks notes stay inside the project.", type="project_rule",
                             level=Level.PROJECT, project="skunkworks").pk)  # fmt: skip
    login(page, "alice")
    if lang == "zh":
        page.get_by_role("button", name="简体中文").click()
    rules = page.get_by_test_id("shared-rules")
    expect(rules.locator(f'[data-rule-id="{org_rule}"]')).to_contain_text("Commit messages are written in English.")
    expect(rules.locator(f'[data-rule-id="{org_rule}"]')).to_contain_text(org)
    expect(rules.locator(f'[data-rule-id="{org_rule}"]')).to_contain_text(approved)
    expect(rules.locator(f'[data-rule-id="{org_rule}"]')).to_contain_text("frank")
    expect(rules.locator(f'[data-rule-id="{team_rule}"]')).to_contain_text(team)
    expect(rules.locator(f'[data-rule-id="{hidden}"]')).to_have_count(0)  # alice is not in that project
    expect(rules.get_by_role("button")).to_have_count(0)  # read-only: nothing to change here
    expect(rules.get_by_role("link", name="Edit")).to_have_count(0)

    # erin (another tenant) sees none of demo's rules
    page.context.clear_cookies()
    login(page, "erin")
    expect(page.get_by_text("Commit messages are written in English.")).to_have_count(0)
