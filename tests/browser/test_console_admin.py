"""The tenant admin in a real browser: the approval queue (approve, reject, the four-eyes refusal, a
high-risk rule's two approvals), revoking a rule, and editing and restoring the policy."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from governance.models import PolicyVersion
from governance.pipeline.base import Candidate, Scope
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Level, MemoryType, Role, SourceType, Status
from memories.access import Caller
from memories.models import Memory, RuleDecision
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from memories.services.write import memory_write
from tests.browser.plans import plan_cancel, plan_yes

pytestmark = pytest.mark.browser

ORDINARY = "All repositories must have a CODEOWNERS file and a README."
HIGH_RISK = "Refunds over $500 need a second approval from finance."
DOUBTFUL = "每周五下午不发布新版本。"


@pytest.fixture(scope="module", autouse=True)
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def propose(world, content: str, *, by: str) -> Memory:
    """An agent proposes a rule on an admin's word (the pipeline's rule 7: it waits for another admin)."""
    return memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content=content,
            scope=Scope(Level.TENANT),
            source_type=SourceType.EXPLICIT_USER_REQUEST,
            type=MemoryType.ORGANIZATION_RULE,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
        on_behalf_of=by,
    ).memory


def card(page: Page, memory: Memory):
    return page.locator(f'[data-testid=proposal][data-memory-id="{memory.pk}"]')


def injected(world) -> set[str]:
    caller = Caller(tenant_id=world.demo.pk, actor="agent:demo-agent", agent=world.demo_agent)
    return {
        i.id
        for i in memory_context_build(caller=caller, request=ContextRequest(scope=ContextScope(user_id="alice"))).items
    }


def test_approve_reject_four_eyes_and_revoke(page, login, world, screenshot, docs_screenshot):
    membership_set(
        tenant=world.demo, user=user_create(username="frank", password="x"), role=Role.TENANT_ADMIN, actor="t"
    )
    in_force = propose(world, "Every repository must have a CODEOWNERS file.", by="frank")
    in_force.status = Status.ACTIVE
    in_force.save(update_fields=["status"])  # an older rule, already in force (similar to the first proposal)
    own = propose(world, ORDINARY, by="carol")
    risky = propose(world, HIGH_RISK, by="frank")
    doubtful = propose(world, DOUBTFUL, by="frank")

    login(page, "carol")
    page.get_by_test_id("nav-console").click()
    page.get_by_test_id("console-link-rules").click()
    expect(page.get_by_test_id("queue-count")).to_have_text("3")
    expect(card(page, risky).get_by_test_id("high-risk")).to_contain_text("approvals, money")
    expect(card(page, own).get_by_test_id("similar")).to_contain_text("Every repository must have a CODEOWNERS file.")
    expect(card(page, own).get_by_test_id("proposer")).to_have_text("carol")
    page.set_viewport_size({"width": 1280, "height": 1500})
    docs_screenshot(page, "console-approvals")
    screenshot(page, "console-approvals")

    # Four eyes: carol can't approve what she proposed.
    card(page, own).get_by_test_id("approve").click()
    expect(page.get_by_test_id("action-error")).to_contain_text("four eyes")
    assert Memory.objects.get(pk=own.pk).status == Status.PENDING_APPROVAL

    # A high-risk rule: carol's approval is the first of two.
    page.goto("/console/rules/")
    card(page, risky).get_by_test_id("approve").click()
    plan_yes(page, "Waiting for an admin (1 of 2 approvals)")
    expect(page.locator(".flash")).to_contain_text("1 of 2")
    expect(card(page, risky).get_by_test_id("approvals")).to_contain_text("1 of 2")

    # Reject, with a reason.
    card(page, doubtful).locator("summary").click()
    card(page, doubtful).locator("textarea[name=reason]").last.fill("Duplicates the release calendar")
    card(page, doubtful).get_by_test_id("reject").click()
    plan_cancel(page, "Duplicates the release calendar", "Deleted")  # Cancel: back to the rule, nothing changed
    assert Memory.objects.get(pk=doubtful.pk).status == Status.PENDING_APPROVAL
    page.goto("/console/rules/")
    card(page, doubtful).locator("summary").click()
    card(page, doubtful).locator("textarea[name=reason]").last.fill("Duplicates the release calendar")
    card(page, doubtful).get_by_test_id("reject").click()
    plan_yes(page, "Duplicates the release calendar", "Waiting for an admin", "Deleted")
    expect(page.locator(".flash")).to_contain_text("Rejected")
    expect(card(page, doubtful)).to_have_count(0)
    assert RuleDecision.objects.get(memory=doubtful, kind="reject").reason == "Duplicates the release calendar"

    # frank approves carol's rule: it is in force and agents receive it.
    login(page, "frank")
    page.goto("/console/rules/")
    card(page, own).locator("textarea[name=reason]").first.fill("Agreed in the platform sync")
    card(page, own).get_by_test_id("approve").click()
    plan_yes(page, ORDINARY, "In force")
    expect(page.locator(".flash")).to_contain_text("in force")
    expect(page.get_by_test_id("rules-in-force")).to_contain_text(ORDINARY)
    assert str(own.pk) in injected(world)

    # ...and revokes it: agents stop receiving it at once.
    page.get_by_test_id("rules-in-force").get_by_role("link", name=ORDINARY).click()
    page.fill("#revoke-reason", "Replaced by the repository template")
    page.get_by_test_id("revoke").click()
    plan_yes(page, ORDINARY, "In use", "Revoked", "Replaced by the repository template")
    expect(page.get_by_test_id("rule-status")).to_have_text("Archived")
    assert Memory.objects.get(pk=own.pk).status == Status.ARCHIVED
    assert str(own.pk) not in injected(world)


def test_policy_edit_and_restore(page, login, world, screenshot):
    login(page, "carol")
    page.goto("/console/policy/")
    expect(page.locator("#id_ttl_task_state_helptext")).to_contain_text("In force: 7 days.")  # the effect, in words
    page.fill("#id_ttl_task_state", "1")
    page.select_option("#id_ttl_task_state_unit", "hours")
    page.fill("#id_alerts_cross_scope_reads_max", "2")
    page.fill("#id_reason", "Task memory for one hour only")
    page.get_by_test_id("policy-save").click()
    plan_yes(page, "Lifetime: Task progress", "7 days", "1 hour", "Task memory for one hour only")
    expect(page.locator(".flash")).to_contain_text("version 2")
    history = page.get_by_test_id("policy-history")
    expect(history.locator("tr[data-version='2']")).to_contain_text("Lifetime: Task progress: 7 days → 1 hour")
    from governance.selectors.policy import policy_current

    assert policy_current(tenant_id=world.demo.pk)[1]["ttl_by_type"]["task_state"] == 3600
    page.goto("/console/policy/")
    expect(page.locator("#id_ttl_task_state_helptext")).to_contain_text("In force: 1 hour.")
    screenshot(page, "console-policy")

    # A value the policy refuses (the browser's own checks let it through) names its field; nothing is saved.
    page.fill("#id_alerts_window_hours", "0")
    page.fill("#id_reason", "typo")
    page.get_by_test_id("policy-save").click()
    expect(page.get_by_test_id("policy-errors")).to_be_visible()
    expect(
        page.locator("#id_alerts_window_hours + .hint, #id_alerts_window_hours ~ .field__error").last
    ).to_contain_text("alerts.window_hours")
    assert PolicyVersion.objects.filter(tenant=world.demo).count() == 2

    page.goto("/console/policy/")
    row = page.get_by_test_id("policy-history").locator("tr[data-version='1']")
    row.locator("summary").click()
    row.locator("input[name=reason]").fill("Back to the default")
    row.get_by_test_id("restore-1").click()
    plan_yes(page, "Lifetime: Task progress", "1 hour", "7 days", "Back to the default")
    expect(page.locator(".flash")).to_contain_text(re.compile(r"Version 1 is back in force as version 3"))
    latest = PolicyVersion.objects.filter(tenant=world.demo).order_by("-version").first()
    assert latest.version == 3 and latest.document == PolicyVersion.objects.get(tenant=world.demo, version=1).document


def test_metrics_charts_render_under_the_csp(page, login, world, screenshot):
    from datetime import UTC, datetime, timedelta

    import time_machine

    from audit.events import Event
    from audit.services import audit_append, audit_fields

    now = datetime.now(UTC)
    for hours_before, (saved, rejected, tokens) in enumerate([(5, 1, 300), (8, 3, 420), (3, 0, 380), (12, 4, 510)]):
        with time_machine.travel(now - timedelta(hours=hours_before * 3), tick=False):
            audit_append(
                [
                    audit_fields(
                        tenant_id=world.demo.pk,
                        event=Event.MEMORY_WRITE_REQUESTED,
                        actor="agent:demo-agent",
                        memory_id="0" * 32,
                    )
                ]
                * saved
                + [
                    audit_fields(
                        tenant_id=world.demo.pk,
                        event=Event.MEMORY_WRITE_REQUESTED,
                        actor="agent:demo-agent",
                        reason_code="restricted_data",
                    )
                ]
                * rejected
                + [
                    audit_fields(
                        tenant_id=world.demo.pk,
                        event=Event.MEMORY_CANDIDATE_DETECTED,
                        actor="agent:demo-agent",
                        sensitivity="restricted",
                        entity_types=["API_KEY"],
                    )
                ]
                * rejected
                + [
                    audit_fields(
                        tenant_id=world.demo.pk,
                        event=Event.MEMORY_INJECTED,
                        actor="agent:demo-agent",
                        details={"memory_ids": [], "token_count": tokens},
                    )
                ]
                * 3
            )
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    login(page, "carol")
    page.goto("/console/metrics/")
    expect(page.locator("svg.chart__svg")).to_have_count(7)
    expect(page.get_by_test_id("chart-writes").locator("rect")).to_have_count(7)  # 4 hours saved, 3 with rejects
    expect(page.get_by_test_id("total-stale")).to_have_text("0")
    screenshot(page, "console-metrics")
    assert problems == []  # no Content-Security-Policy violation, no script error
