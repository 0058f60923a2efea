"""Reads for rule approvals: the queue of proposed shared rules, the rules in force, one rule's history.

A *rule* is a shared memory: team, project or tenant level with no subject (``user_id`` blank), or
any ``organization_rule``. A *proposal* is such a memory waiting for an admin (a pending
``Confirmation`` with ``confirm_by="admin"``, as the write pipeline's rule 7 creates it).

Content is decrypted here (through the model attribute) for the admins' pages only; it never leaves
the process any other way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from django.db.models import Q, QuerySet
from django.utils import timezone

from governance.pipeline.lexicons.rule_risk import RiskTopic, rule_risk_topics
from governance.vocabulary import Level, MemoryType, Status
from memories.lifecycle.similarity import bigrams, jaccard, overlap
from memories.models import Confirmation, Memory, MemoryVersion, RuleDecision
from memories.selectors import memory_versions
from vault import DecryptionError

# A high-risk rule needs this many approvals, from as many different admins (none of them the proposer).
HIGH_RISK_APPROVALS = 2
# Similar rules are looked for among the newest this many rules in force.
SIMILAR_POOL = 500
SIMILAR_SHOWN = 3
SIMILAR_JACCARD_MIN = 0.3
SIMILAR_OVERLAP_MIN = 0.75
SIMILAR_OVERLAP_MIN_BIGRAMS = 5

RULE_LEVELS = (Level.TEAM.value, Level.PROJECT.value, Level.TENANT.value)
REVOCABLE = (Status.ACTIVE.value, Status.PAUSED.value)


def rule_filter() -> Q:
    """What counts as a rule: shared (no subject) at team/project/tenant level, or an organization rule."""
    return Q(user_id="", level__in=RULE_LEVELS) | Q(type=MemoryType.ORGANIZATION_RULE.value)


def approvals_required(topics: tuple[RiskTopic, ...]) -> int:
    return HIGH_RISK_APPROVALS if topics else 1


def _readable(memory: Memory) -> str:
    try:
        return memory.content
    except DecryptionError:
        return ""


@dataclass(frozen=True)
class SimilarRule:
    id: UUID
    content: str
    level: str
    team: str
    project: str
    score: float  # 0..1: how much of the two texts is shared (character bigrams)


@dataclass(frozen=True)
class RuleProposal:
    memory: Memory
    confirmation: Confirmation
    content: str
    risk_topics: tuple[RiskTopic, ...]
    approvals: tuple[RuleDecision, ...]
    similar: tuple[SimilarRule, ...] = ()

    @property
    def proposer(self) -> str:
        return self.confirmation.requested_by

    @property
    def high_risk(self) -> bool:
        return bool(self.risk_topics)

    @property
    def approvals_required(self) -> int:
        return approvals_required(self.risk_topics)

    @property
    def approvers(self) -> tuple[str, ...]:
        return tuple(decision.actor for decision in self.approvals)


@dataclass(frozen=True)
class RuleInForce:
    memory: Memory
    content: str
    approvals: tuple[RuleDecision, ...] = field(default=())


def _pending_confirmations(tenant_id: int, now: datetime) -> QuerySet[Confirmation]:
    return (
        Confirmation.objects.filter(
            tenant_id=tenant_id,
            confirm_by="admin",
            state=Confirmation.State.PENDING,
            expires_at__gt=now,
            memory__status=Status.PENDING_APPROVAL,
        )
        .select_related("memory", "memory__agent")
        .order_by("created_at", "id")
    )


def _approvals_by_memory(tenant_id: int, memory_ids: list[UUID]) -> dict[UUID, list[RuleDecision]]:
    found: dict[UUID, list[RuleDecision]] = {}
    decisions = RuleDecision.objects.filter(
        tenant_id=tenant_id, memory_id__in=memory_ids, kind=RuleDecision.Kind.APPROVE
    ).order_by("created_at")
    for decision in decisions:
        found.setdefault(decision.memory_id, []).append(decision)
    return found


def _pool(tenant_id: int) -> list[tuple[Memory, str, frozenset[str]]]:
    rows = Memory.objects.filter(rule_filter(), tenant_id=tenant_id, status=Status.ACTIVE).order_by("-updated_at")[
        :SIMILAR_POOL
    ]
    pool = []
    for memory in rows:
        text = _readable(memory)
        pool.append((memory, text, bigrams(text)))
    return pool


def _similar(memory: Memory, text: str, pool: list[tuple[Memory, str, frozenset[str]]]) -> tuple[SimilarRule, ...]:
    """Rules in force that say (nearly) the same: the same fingerprint, or many shared bigrams."""
    grams = bigrams(text)
    scored = []
    for other, other_text, other_grams in pool:
        if other.pk == memory.pk:
            continue
        score = 1.0 if other.fingerprint == memory.fingerprint else jaccard(grams, other_grams)
        contained = (
            min(len(grams), len(other_grams)) >= SIMILAR_OVERLAP_MIN_BIGRAMS
            and overlap(grams, other_grams) >= SIMILAR_OVERLAP_MIN
        )
        if score >= SIMILAR_JACCARD_MIN or contained:
            scored.append(
                SimilarRule(other.pk, other_text, other.level, other.team, other.project, round(max(score, 0.0), 2))
            )
    scored.sort(key=lambda item: item.score, reverse=True)
    return tuple(scored[:SIMILAR_SHOWN])


def rule_queue(*, tenant_id: int, now: datetime | None = None) -> list[RuleProposal]:
    """Every proposal waiting for an admin, oldest first, with its risk, approvals so far and similar rules."""
    now = now or timezone.now()
    confirmations = list(_pending_confirmations(tenant_id, now))
    if not confirmations:
        return []
    approvals = _approvals_by_memory(tenant_id, [c.memory_id for c in confirmations])
    pool = _pool(tenant_id)
    proposals = []
    for confirmation in confirmations:
        memory = confirmation.memory
        text = _readable(memory)
        proposals.append(
            RuleProposal(
                memory=memory,
                confirmation=confirmation,
                content=text,
                risk_topics=rule_risk_topics(text),
                approvals=tuple(approvals.get(memory.pk, ())),
                similar=_similar(memory, text, pool),
            )
        )
    return proposals


def rule_proposal_get(*, tenant_id: int, memory_id: object, now: datetime | None = None) -> RuleProposal | None:
    """One waiting proposal of this tenant, or None (missing, settled, expired or another tenant's)."""
    now = now or timezone.now()
    confirmation = _pending_confirmations(tenant_id, now).filter(memory_id=memory_id).first()
    if confirmation is None:
        return None
    memory = confirmation.memory
    text = _readable(memory)
    return RuleProposal(
        memory=memory,
        confirmation=confirmation,
        content=text,
        risk_topics=rule_risk_topics(text),
        approvals=tuple(_approvals_by_memory(tenant_id, [memory.pk]).get(memory.pk, ())),
        similar=_similar(memory, text, _pool(tenant_id)),
    )


def rules_in_force(*, tenant_id: int) -> list[RuleInForce]:
    """The approved rules the read path may inject (active, unexpired), newest first."""
    now = timezone.now()
    rows = list(
        Memory.objects.filter(rule_filter(), tenant_id=tenant_id, status=Status.ACTIVE)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        .select_related("agent")
        .order_by("-updated_at")[:SIMILAR_POOL]
    )
    approvals = _approvals_by_memory(tenant_id, [row.pk for row in rows])
    return [RuleInForce(row, _readable(row), tuple(approvals.get(row.pk, ()))) for row in rows]


def rule_get(*, tenant_id: int, memory_id: object) -> Memory | None:
    """A rule of this tenant in any status but deleted (its page shows the history), else None."""
    return (
        Memory.objects.filter(rule_filter(), tenant_id=tenant_id, pk=memory_id)
        .exclude(status=Status.DELETED)
        .select_related("agent")
        .first()
    )


def rule_decisions(*, tenant_id: int, memory_id: object) -> QuerySet[RuleDecision]:
    return RuleDecision.objects.filter(tenant_id=tenant_id, memory_id=memory_id).order_by("created_at")


def rule_versions(*, memory: Memory) -> list[MemoryVersion]:
    """Every version of the rule, newest first."""
    return memory_versions(memory=memory)


def rule_confirmation(*, tenant_id: int, memory_id: object) -> Confirmation | None:
    return Confirmation.objects.filter(tenant_id=tenant_id, memory_id=memory_id, confirm_by="admin").first()
