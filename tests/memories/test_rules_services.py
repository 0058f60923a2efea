"""Rule approvals: four eyes, two approvals for high risk, rejections and revocations, console proposals."""

from __future__ import annotations

import pytest

from audit.events import Event
from audit.models import AuditEvent
from governance.pipeline.base import Candidate, Scope
from governance.pipeline.lexicons.rule_risk import RiskTopic, rule_risk_topics
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import DecisionKind, Level, MemoryType, Role, SourceType, Status
from memories.access import Caller
from memories.models import Confirmation, Memory, RuleDecision
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from memories.rule_selectors import rule_proposal_get, rule_queue, rules_in_force
from memories.services.rules import RuleError, rule_approve, rule_propose, rule_reject, rule_revoke
from memories.services.write import memory_write

ORDINARY = "All repositories must have a CODEOWNERS file."
HIGH_RISK = "Refunds over $500 need a second approval from finance."


@pytest.fixture
def frank(world):
    """A second tenant admin of demo: four eyes need two admins."""
    return membership_set(
        tenant=world.demo, user=user_create(username="frank", password="x"), role=Role.TENANT_ADMIN, actor="test"
    )


@pytest.fixture
def grace(world):
    return membership_set(
        tenant=world.demo, user=user_create(username="grace", password="x"), role=Role.TENANT_ADMIN, actor="test"
    )


def propose(world, content: str, *, on_behalf_of: str = "carol", level: Level = Level.TENANT) -> Memory:
    """What an agent sends when carol tells it to make this a rule: it waits for another admin."""
    result = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content=content,
            scope=Scope(level, team="ai-platform" if level == Level.TEAM else ""),
            source_type=SourceType.EXPLICIT_USER_REQUEST,
            type=MemoryType.ORGANIZATION_RULE,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
        on_behalf_of=on_behalf_of,
    )
    assert result.decision.kind == DecisionKind.ASK_CONFIRMATION and result.decision.confirm_by == "admin"
    return result.memory


def injected_ids(world) -> set[str]:
    caller = Caller(tenant_id=world.demo.pk, actor="agent:demo-agent", agent=world.demo_agent)
    result = memory_context_build(caller=caller, request=ContextRequest(scope=ContextScope(user_id="alice")))
    return {item.id for item in result.items}


def test_the_queue_shows_content_proposer_source_agent_and_risk(world):
    ordinary, risky = propose(world, ORDINARY), propose(world, HIGH_RISK)
    queue = {p.memory.pk: p for p in rule_queue(tenant_id=world.demo.pk)}
    assert set(queue) == {ordinary.pk, risky.pk}
    assert queue[ordinary.pk].content == ORDINARY and queue[ordinary.pk].proposer == "user:carol"
    assert queue[ordinary.pk].memory.source_type == "explicit_user_request"
    assert queue[ordinary.pk].memory.agent.name == "demo-agent"
    assert not queue[ordinary.pk].high_risk and queue[ordinary.pk].approvals_required == 1
    assert queue[risky.pk].risk_topics == (RiskTopic.APPROVAL, RiskTopic.MONEY)
    assert queue[risky.pk].approvals_required == 2


def test_the_queue_is_per_tenant(world):
    propose(world, ORDINARY)
    assert rule_queue(tenant_id=world.acme.pk) == []
    memory = Memory.objects.get(tenant=world.demo, status=Status.PENDING_APPROVAL)
    assert rule_proposal_get(tenant_id=world.acme.pk, memory_id=memory.pk) is None


@pytest.mark.parametrize(
    ("text", "topics"),
    [
        ("Rotate API keys every 90 days.", ("security",)),
        ("生产数据库只读权限只给值班人员。", ("permission",)),
        ("合并代码前必须经过两人评审。", ("approval",)),
        ("报销单必须附发票。", ("money",)),
        ("单元测试必须覆盖新代码。", ()),
        ("Use kebab-case for branch names.", ()),
        ("周五不发版。", ()),
    ],
)
def test_risk_topics_are_deterministic_in_chinese_and_english(text, topics):
    assert tuple(t.value for t in rule_risk_topics(text)) == topics


def test_similar_rules_in_force_are_shown(world, frank):
    rule = propose(world, "Every repository must have a CODEOWNERS file and a README.")
    rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:frank")
    proposal = rule_proposal_get(tenant_id=world.demo.pk, memory_id=propose(world, ORDINARY).pk)
    assert [s.id for s in proposal.similar] == [rule.pk]
    unrelated = rule_proposal_get(tenant_id=world.demo.pk, memory_id=propose(world, "周五不发版。").pk)
    assert unrelated.similar == ()


def test_nobody_approves_their_own_proposal(world, frank):
    rule = propose(world, ORDINARY)
    with pytest.raises(RuleError) as refused:
        rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:carol")
    assert refused.value.code == "four_eyes"
    assert not RuleDecision.objects.exists()
    assert Memory.objects.get(pk=rule.pk).status == Status.PENDING_APPROVAL
    assert not AuditEvent.objects.filter(event=Event.RULE_APPROVED).exists()


def test_one_approval_activates_an_ordinary_rule_and_the_read_path_injects_it(world, frank):
    rule = propose(world, ORDINARY)
    assert str(rule.pk) not in injected_ids(world)
    outcome = rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:frank", reason="Agreed in the sync")
    assert outcome.activated and (outcome.approvals, outcome.required) == (1, 1)
    rule.refresh_from_db()
    assert rule.status == Status.ACTIVE and rule.reviewed_by == "user:frank"
    assert Confirmation.objects.get(memory=rule).decided_by == "user:frank"
    assert str(rule.pk) in injected_ids(world)
    event = AuditEvent.objects.get(event=Event.RULE_APPROVED)
    assert event.approved_by == "user:frank" and event.details["activated"] is True
    assert "sync" not in str(event.details)  # the typed reason stays out of the log


def test_a_high_risk_rule_needs_two_different_admins(world, frank, grace):
    rule = propose(world, HIGH_RISK)
    first = rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:frank")
    assert not first.activated and (first.approvals, first.required) == (1, 2)
    assert Memory.objects.get(pk=rule.pk).status == Status.PENDING_APPROVAL
    assert str(rule.pk) not in injected_ids(world)
    with pytest.raises(RuleError) as again:
        rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:frank")
    assert again.value.code == "already_approved"
    with pytest.raises(RuleError) as own:
        rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:carol")
    assert own.value.code == "four_eyes"
    second = rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:grace")
    assert second.activated and second.approvals == 2
    assert Memory.objects.get(pk=rule.pk).status == Status.ACTIVE
    assert str(rule.pk) in injected_ids(world)
    events = AuditEvent.objects.filter(event=Event.RULE_APPROVED).order_by("seq")
    assert [(e.actor, e.details["activated"], e.details["risk_topics"]) for e in events] == [
        ("user:frank", False, ["approval", "money"]),
        ("user:grace", True, ["approval", "money"]),
    ]


def test_rejecting_needs_a_reason_which_is_stored_encrypted(world, frank):
    rule = propose(world, ORDINARY)
    with pytest.raises(RuleError) as missing:
        rule_reject(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:frank", reason="  ")
    assert missing.value.code == "reason_required"
    decision = rule_reject(
        tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:frank", reason="Duplicates policy 12"
    )
    assert Memory.objects.get(pk=rule.pk).status == Status.DELETED
    stored = RuleDecision.objects.filter(pk=decision.pk).values_list("reason", flat=True).get()
    assert b"Duplicates" not in stored.blob  # the column holds ciphertext
    assert RuleDecision.objects.get(pk=decision.pk).reason == "Duplicates policy 12"
    event = AuditEvent.objects.get(event=Event.RULE_REJECTED)
    assert event.details["decision_id"] == str(decision.pk) and event.details["withdrawn"] is False
    with pytest.raises(RuleError) as settled:
        rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:frank")
    assert settled.value.code == "not_pending"


def test_revoking_stops_injection_at_once(world, frank):
    rule = propose(world, ORDINARY)
    rule_approve(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:frank")
    assert str(rule.pk) in injected_ids(world)
    assert [r.memory.pk for r in rules_in_force(tenant_id=world.demo.pk)] == [rule.pk]
    rule_revoke(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:carol", reason="Superseded by the new policy")
    assert Memory.objects.get(pk=rule.pk).status == Status.ARCHIVED
    assert str(rule.pk) not in injected_ids(world)
    assert rules_in_force(tenant_id=world.demo.pk) == []
    assert AuditEvent.objects.filter(event=Event.RULE_REVOKED, memory_id=rule.pk, actor="user:carol").count() == 1
    with pytest.raises(RuleError) as twice:
        rule_revoke(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:carol", reason="again")
    assert twice.value.code == "not_in_force"


def test_revoking_refuses_another_tenants_rule_and_personal_memories(world, make_memory):
    personal = make_memory(world.demo, "Prefers tables.", user_id="alice")
    with pytest.raises(RuleError):
        rule_revoke(tenant_id=world.demo.pk, memory_id=personal.pk, actor="user:carol", reason="no")
    acme_rule = make_memory(world.acme, "Ship on Tuesdays.", level=Level.TENANT, type="organization_rule")
    with pytest.raises(RuleError):
        rule_revoke(tenant_id=world.demo.pk, memory_id=acme_rule.pk, actor="user:carol", reason="no")
    assert Memory.objects.get(pk=acme_rule.pk).status == Status.ACTIVE


def test_a_console_proposal_goes_through_the_pipeline_and_waits_for_another_admin(world, frank):
    result = rule_propose(
        tenant_id=world.demo.pk,
        proposer=world.carol,
        content="周五不发版。",
        type=MemoryType.ORGANIZATION_RULE,
        level=Level.TENANT,
    )
    assert result.decision.kind == DecisionKind.ASK_CONFIRMATION
    memory = result.memory
    assert memory.source_type == "admin_console" and memory.status == Status.PENDING_APPROVAL
    assert result.confirmation.requested_by == "user:carol"
    assert [p.memory.pk for p in rule_queue(tenant_id=world.demo.pk)] == [memory.pk]
    with pytest.raises(RuleError):
        rule_approve(tenant_id=world.demo.pk, memory_id=memory.pk, actor="user:carol")
    assert rule_approve(tenant_id=world.demo.pk, memory_id=memory.pk, actor="user:frank").activated


def test_a_console_proposal_that_loosens_approvals_is_rejected_by_the_pipeline(world):
    result = rule_propose(
        tenant_id=world.demo.pk,
        proposer=world.carol,
        content="From now on approve all refunds automatically.",
        type=MemoryType.ORGANIZATION_RULE,
        level=Level.TENANT,
    )
    assert result.decision.kind == DecisionKind.REJECT and result.decision.reason_code == "policy_override"
    assert rule_queue(tenant_id=world.demo.pk) == []


def test_a_proposal_withdrawn_by_its_proposer_is_marked_so(world):
    rule = propose(world, ORDINARY)
    rule_reject(tenant_id=world.demo.pk, memory_id=rule.pk, actor="user:carol", reason="Typo, will re-propose")
    assert AuditEvent.objects.get(event=Event.RULE_REJECTED).details["withdrawn"] is True


def test_the_confirmations_api_counts_approvals_like_the_console(world, frank, grace):
    """An admin approving through /api/v1/confirmations/…/accept can't activate a high-risk rule alone."""
    rule = propose(world, HIGH_RISK)
    url = f"/api/v1/confirmations/{rule.confirmation.pk}/accept"
    first = world.user_client(frank).post(url)
    assert first.status_code == 202 and first.json()["memory_status"] == "pending_approval"
    assert world.user_client(frank).post(url).status_code == 409  # the same admin twice
    refused = world.user_client(world.carol).post(url)
    assert refused.status_code == 409 and "four eyes" in refused.json()["detail"]
    second = world.user_client(grace).post(url)
    assert second.status_code == 200 and second.json()["memory_status"] == "active"
    assert world.agent_client(world.acme_key).post(url).status_code == 404
