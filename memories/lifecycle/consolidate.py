"""Consolidate (§10.2): propose merging a subject's redundant memories — never merge silently.

Per subject, per (scope, type): active memories whose content overlaps (``similarity``) form a
cluster; the cluster becomes one proposal — a ``pending_confirmation`` memory with the merged text
and a ``Confirmation(confirm_by="user")``. If the person accepts it, a later run (or
``merge_proposal_apply``) archives the memories it replaces; if they decline or let it expire,
nothing else changes and the same set is never proposed again.

Watermark dirty-check (seed 000): ``Subject.changed_at`` moves on every change to the subject's
memories; ``Subject.consolidated_at`` records how far the last pass looked. Subjects with no change
since are skipped and counted as ``skipped_not_dirty`` — most subjects, most of the time.

One run at a time (seed 000's global lock): a run takes the ``consolidate`` row of ``JobLock`` with a
lease (``memories.lifecycle.locks``); a second run while it is held does nothing (``skipped_locked``).
Per subject, the ``MAX_MEMORIES_PER_SUBJECT`` memories compared are the top ones by use — times an
answer cited them, times they were injected — and recency, so what people use is what gets merged.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from datetime import datetime, timedelta
from uuid import UUID

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.pipeline.base import Scope
from governance.policy import policy_snapshot_for_tenant
from governance.vocabulary import Level, MemoryType, Sensitivity, SourceType, Status, max_sensitivity
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, claim, job_actor, timed_run
from memories.lifecycle.invalidate import memory_invalidate
from memories.lifecycle.locks import job_lock
from memories.lifecycle.similarity import Item, bigrams, clusters, merged_text
from memories.models import Confirmation, Memory, MergeProposal, Subject
from memories.services.records import NewMemory, memory_archive, memory_create

JOB = "consolidate"
ACTOR = job_actor(JOB)
# Long-lived, person-level knowledge; short-lived types expire on their own, org rules go through
# admin approval.
MERGEABLE_TYPES = (
    MemoryType.USER_PREFERENCE,
    MemoryType.USER_PROFILE,
    MemoryType.CONSTRAINT,
    MemoryType.CORRECTION,
    MemoryType.PROJECT_RULE,
)
MERGEABLE_LEVELS = (Level.USER, Level.PROJECT)
MAX_MEMORIES_PER_SUBJECT = 300  # pairwise comparison is quadratic per (scope, type) group
MAX_CLUSTER = 10
PROPOSAL_REASON = "Several of your memories say nearly the same thing; accepting this merged one archives them."


def _dirty() -> Q:
    return Q(consolidated_at__isnull=True) | Q(changed_at__gt=F("consolidated_at"))


def _sources_key(ids: list[str]) -> str:
    return hashlib.sha256("|".join(sorted(ids)).encode()).hexdigest()


def _candidates(subject: Subject, *, now: datetime) -> QuerySet[Memory]:
    in_open_proposal = [
        source
        for ids in MergeProposal.objects.filter(
            tenant_id=subject.tenant_id, user_id=subject.user_id, state=MergeProposal.State.OPEN
        ).values_list("source_ids", flat=True)
        for source in ids
    ]
    return (
        Memory.objects.filter(
            tenant_id=subject.tenant_id,
            user_id=subject.user_id,
            status=Status.ACTIVE,
            type__in=MERGEABLE_TYPES,
            level__in=MERGEABLE_LEVELS,
        )
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        .exclude(pk__in=in_open_proposal)
        .order_by(
            F("cited_count").desc(),
            F("use_count").desc(),
            F("last_used_at").desc(nulls_last=True),
            F("updated_at").desc(),
            "id",
        )
    )


def _propose(subject: Subject, members: list[Memory], text: str, *, now: datetime) -> MergeProposal:
    """Store the merged memory as pending, its confirmation, the proposal, and audit the request."""
    first = members[0]
    policy = policy_snapshot_for_tenant(tenant_id=subject.tenant_id)
    expiries = [m.expires_at for m in members if m.expires_at is not None]
    memory = memory_create(
        tenant_id=subject.tenant_id,
        new=NewMemory(
            scope=Scope(Level(first.level), user_id=first.user_id, team=first.team, project=first.project),
            type=first.type,
            content=text,
            source_type=SourceType.AGENT_INFERENCE.value,
            confidence=min(m.confidence for m in members),
            sensitivity=max_sensitivity(*(Sensitivity(m.sensitivity) for m in members)).value,
            entity_types=tuple(sorted({e for m in members for e in m.entity_types})),
            expires_at=min(expiries) if expiries else None,
            status=Status.PENDING_CONFIRMATION.value,
            reason_code="consolidation_proposed",
            reason=PROPOSAL_REASON,
            policy_version=policy.version,
        ),
        actor=ACTOR,
        audit=False,
    )
    confirmation = Confirmation.objects.create(
        tenant_id=subject.tenant_id,
        memory=memory,
        confirm_by="user",
        requested_by=ACTOR,
        expires_at=now + timedelta(seconds=policy.pending_confirmation_ttl),
    )
    source_ids = [str(m.pk) for m in members]
    proposal = MergeProposal.objects.create(
        tenant_id=subject.tenant_id,
        memory=memory,
        user_id=subject.user_id,
        source_ids=source_ids,
        sources_key=_sources_key(source_ids),
    )
    audit_record(
        tenant_id=subject.tenant_id,
        event=Event.MEMORY_WRITE_REQUESTED,
        actor=ACTOR,
        memory_id=memory.pk,
        memory_type=memory.type,
        scope=memory.level,
        subject_id=memory.user_id,
        sensitivity=memory.sensitivity,
        requires_confirmation=True,
        policy_version=policy.version,
        reason_code="consolidation_proposed",
        details={"confirmation_id": str(confirmation.pk), "proposal_id": str(proposal.pk), "merge_of": source_ids},
    )
    return proposal


def _withdraw_stale_proposals(subject: Subject) -> int:
    """Withdraw this subject's open proposals whose sources changed since (edited, deleted, paused…).

    A proposal quotes its sources: one whose source was deleted must not be accepted later and bring
    the deleted words back. Its pending memory expires with its confirmation (both audited).
    """
    withdrawn = 0
    proposals = MergeProposal.objects.select_related("memory").filter(
        tenant_id=subject.tenant_id,
        user_id=subject.user_id,
        state=MergeProposal.State.OPEN,
        memory__status=Status.PENDING_CONFIRMATION,
    )
    for proposal in proposals.order_by("created_at", "id"):
        sources = Memory.objects.filter(tenant_id=subject.tenant_id, pk__in=proposal.source_ids)
        unchanged = sources.filter(status=Status.ACTIVE, updated_at__lte=proposal.created_at).count()
        if unchanged == len(proposal.source_ids):
            continue
        memory_invalidate(proposal.memory, actor=ACTOR, reason_code="merge_sources_changed")
        proposal.state, proposal.settled_at = MergeProposal.State.DROPPED, timezone.now()
        proposal.save(update_fields=["state", "settled_at"])
        withdrawn += 1
    return withdrawn


def subject_consolidate_one(subject_pk: int, *, now: datetime) -> Counter[str]:
    """One subject: propose merges for its clusters, then move its watermark. One transaction, so
    a failure half-way leaves neither a proposal nor a moved watermark behind."""
    counts: Counter[str] = Counter()
    with transaction.atomic():
        subject = claim(Subject.objects.filter(_dirty(), pk=subject_pk))
        if subject is None:  # another worker did it, or it is no longer dirty
            return Counter({"skipped": 1})
        if subject.memory_paused:
            # Paused: nothing new is proposed. The watermark stays, so the subject is looked at again
            # once memory is resumed.
            return Counter({"skipped_paused": 1})
        counts["withdrawn"] += _withdraw_stale_proposals(subject)
        policy = policy_snapshot_for_tenant(tenant_id=subject.tenant_id)
        groups: dict[tuple[str, str, str, str], list[Memory]] = defaultdict(list)
        top = sorted(_candidates(subject, now=now)[:MAX_MEMORIES_PER_SUBJECT], key=lambda m: (m.created_at, m.pk))
        for memory in top:
            groups[(memory.level, memory.team, memory.project, memory.type)].append(memory)
        for members in groups.values():
            if len(members) < 2:
                continue
            by_key = {str(m.pk): m for m in members}
            items = [Item(str(m.pk), m.content, bigrams(m.content)) for m in members]
            for cluster in clusters(items):
                cluster = cluster[:MAX_CLUSTER]
                key = _sources_key([item.key for item in cluster])
                if MergeProposal.objects.filter(tenant_id=subject.tenant_id, sources_key=key).exists():
                    counts["skipped_already_proposed"] += 1
                    continue
                text = merged_text(cluster)
                if len(text) > policy.max_content_chars:
                    counts["skipped_too_long"] += 1
                    continue
                _propose(subject, [by_key[item.key] for item in cluster], text, now=now)
                counts["proposed"] += 1
        # The watermark covers our own proposal writes too (they moved changed_at). A write racing this
        # pass on PostgreSQL may stamp changed_at a moment earlier than the watermark; it is looked at
        # with the subject's next change — a proposal late, never a wrong one.
        changed_at = Subject.objects.filter(pk=subject.pk).values_list("changed_at", flat=True).get()
        subject.consolidated_at = max(timezone.now(), changed_at)
        subject.save(update_fields=["consolidated_at"])
        counts["subjects_checked"] += 1
    return counts


def merge_proposal_apply(proposal_pk: UUID, *, actor: str = ACTOR) -> str:
    """Settle one open proposal whose confirmation was answered: archive its sources if accepted."""
    with transaction.atomic():
        proposal = claim(
            MergeProposal.objects.select_related("memory")
            .filter(pk=proposal_pk, state=MergeProposal.State.OPEN)
            .exclude(memory__status=Status.PENDING_CONFIRMATION)
        )
        if proposal is None:
            return "skipped"
        outcome = "dropped"
        if proposal.memory.status == Status.ACTIVE:
            outcome = "applied"
            for source in Memory.objects.filter(
                tenant_id=proposal.tenant_id, pk__in=proposal.source_ids, status__in=(Status.ACTIVE, Status.PAUSED)
            ).order_by("id"):
                memory_archive(memory=source, actor=actor, reason_code="merged")
        proposal.state = MergeProposal.State.APPLIED if outcome == "applied" else MergeProposal.State.DROPPED
        proposal.settled_at = timezone.now()
        proposal.save(update_fields=["state", "settled_at"])
        return outcome


def consolidate_run(
    *, tenant_id: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE, now: datetime | None = None
) -> JobResult:
    """Settle answered proposals, then look at up to ``batch_size`` dirty subjects — unless another run
    holds the lock."""
    now = now or timezone.now()
    result = JobResult(JOB)
    with timed_run(result), job_lock(JOB, now=now) as held:
        if not held:
            result.add("skipped_locked")
            return result
        answered = MergeProposal.objects.filter(state=MergeProposal.State.OPEN).exclude(
            memory__status=Status.PENDING_CONFIRMATION
        )
        subjects = Subject.objects.all()
        if tenant_id is not None:
            answered = answered.filter(tenant_id=tenant_id)
            subjects = subjects.filter(tenant_id=tenant_id)
        answered_ids = list(answered.order_by("created_at", "id").values_list("id", flat=True)[:batch_size])
        for proposal_pk in answered_ids:
            result.add(merge_proposal_apply(proposal_pk))
        result.add("skipped_not_dirty", subjects.exclude(_dirty()).count())
        dirty_ids = list(
            subjects.filter(_dirty()).order_by("changed_at", "pk").values_list("pk", flat=True)[:batch_size]
        )
        for subject_pk in dirty_ids:
            for outcome, n in subject_consolidate_one(subject_pk, now=now).items():
                result.add(outcome, n)
        result.has_more = len(dirty_ids) == batch_size or len(answered_ids) == batch_size
    return result
