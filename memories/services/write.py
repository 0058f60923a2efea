"""memory.write: run a candidate through the write pipeline, then store and audit the decision.

The pipeline (governance/pipeline) decides; this module gathers what it needs (policy snapshot,
the subject's consent flags, the existing memories of the same scope, decrypted) and carries the
decision out in one transaction with its audit events.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_append, audit_fields
from governance.models import AgentClient, Membership, TeamMembership
from governance.pipeline import run_pipeline
from governance.pipeline.base import Actor, Candidate, Decision, InvalidCandidate, Scope, WriteContext
from governance.vocabulary import DecisionKind, Level, MemoryType, Role, Status
from memories.fingerprints import content_fingerprint
from memories.models import Confirmation, Memory
from memories.services.records import NewMemory, memory_create, memory_update, touch_subject
from memories.write_selectors import WriteFacts, existing_in_scope, write_facts
from vault.datakeys import data_key_for


@dataclass(frozen=True)
class WriteResult:
    decision: Decision
    memory: Memory | None = None
    confirmation: Confirmation | None = None


def actor_for_write(*, tenant_id: int, scope: Scope, on_behalf_of: str, facts: WriteFacts) -> Actor:
    """Who the policy sees: the person named by on_behalf_of (or the subject), else the agent itself."""
    person = on_behalf_of or scope.user_id
    if not person:
        return Actor(role=Role.AGENT)
    role = Role(facts.role) if facts.role else Role.MEMBER
    owned: frozenset[str] = frozenset()
    if facts.role and scope.level == Level.TEAM:  # only team rules ask who owns which team
        owned = frozenset(
            TeamMembership.objects.filter(
                membership__tenant_id=tenant_id, membership__subject_id=person, is_owner=True
            ).values_list("team__slug", flat=True)
        )
    return Actor(
        role=role,
        user_id=person,
        memory_paused=facts.memory_paused,
        session_opt_out=facts.session_opt_out,
        agent_blocked=facts.agent_blocked,
        owned_teams=owned,
    )


def _person_label(*, tenant_id: int, subject_id: str) -> str:
    """The actor label ("user:<username>") of the person with this subject id, if they have a login."""
    if not subject_id:
        return ""
    membership = Membership.objects.select_related("user").filter(tenant_id=tenant_id, subject_id=subject_id).first()
    return f"user:{membership.user.get_username()}" if membership else f"subject:{subject_id}"


def check_agent_rights(agent: AgentClient | None, candidate: Candidate) -> None:
    """Rule 1: the agent key's own limits on the types and scopes it may write."""
    if agent is None:
        return
    if agent.allowed_types and (candidate.type or "") not in agent.allowed_types and candidate.type is not None:
        raise InvalidCandidate("type", f"this agent key may not write {candidate.type} memories")
    if agent.allowed_levels and candidate.scope.level not in agent.allowed_levels:
        raise InvalidCandidate("scope.level", f"this agent key may not write {candidate.scope.level} memories")


def memory_write(
    *,
    tenant_id: int,
    candidate: Candidate,
    actor_label: str,
    agent: AgentClient | None = None,
    on_behalf_of: str = "",
    session_id: str = "",
    actor: Actor | None = None,
) -> WriteResult:
    """Decide on a candidate and carry the decision out. Raises InvalidCandidate for rule 1."""
    check_agent_rights(agent, candidate)
    scope = candidate.scope
    facts = write_facts(
        tenant_id=tenant_id,
        person=on_behalf_of or scope.user_id,
        subject=scope.user_id or on_behalf_of,
        session_id=session_id or scope.session_id,
        agent_id=agent.pk if agent is not None else None,
    )
    if actor is None:
        actor = actor_for_write(tenant_id=tenant_id, scope=scope, on_behalf_of=on_behalf_of, facts=facts)
    elif facts.agent_blocked:  # an actor handed in can't lift the person's switch
        actor = replace(actor, agent_blocked=True)
    now = timezone.now()
    fingerprint = content_fingerprint(tenant_id=tenant_id, content=candidate.content)
    ctx = WriteContext(
        candidate=candidate,
        actor=actor,
        policy=facts.policy,
        now=now,
        fingerprint=fingerprint,
        existing=existing_in_scope(
            tenant_id=tenant_id, scope=scope, now=now, fingerprint=fingerprint, aspect_names=candidate.aspects.keys()
        ),
    )
    decision = run_pipeline(ctx)
    if decision.kind != DecisionKind.REJECT:
        # Fetched (or created) before the transaction: inside one, a key is cached only on commit, so
        # the record and its version would each read it from the database again.
        data_key_for(tenant_id=tenant_id, owner=scope.user_id)
    with transaction.atomic():
        return _carry_out(
            tenant_id=tenant_id,
            candidate=candidate,
            decision=decision,
            actor_label=actor_label,
            agent=agent,
            proposer=_person_label(tenant_id=tenant_id, subject_id=on_behalf_of) or actor_label,
            pending_ttl=facts.policy.pending_confirmation_ttl,
            fingerprint=ctx.fingerprint,
        )


def _decision_event(
    *,
    tenant_id: int,
    event: Event,
    candidate: Candidate,
    decision: Decision,
    actor_label: str,
    agent: AgentClient | None,
    memory_id: object = None,
    **extra: object,
) -> dict[str, object]:
    return audit_fields(
        tenant_id=tenant_id,
        event=event,
        actor=actor_label,
        memory_id=memory_id,  # type: ignore[arg-type]
        memory_type=(decision.type or candidate.type or ""),
        scope=candidate.scope.level,
        subject_id=candidate.scope.user_id,
        sensitivity=decision.sensitivity,
        source_message_id=candidate.source_message_id,
        requires_confirmation=decision.kind == DecisionKind.ASK_CONFIRMATION,
        agent_version=agent.name if agent else "",
        policy_version=decision.policy_version,
        reason_code=decision.reason_code,
        entity_types=decision.entity_types,
        **extra,  # type: ignore[arg-type]
    )


def _carry_out(
    *,
    tenant_id: int,
    candidate: Candidate,
    decision: Decision,
    actor_label: str,
    agent: AgentClient | None,
    proposer: str,
    pending_ttl: int,
    fingerprint: str,
) -> WriteResult:
    common = {
        "tenant_id": tenant_id,
        "candidate": candidate,
        "decision": decision,
        "actor_label": actor_label,
        "agent": agent,
    }
    events = [_decision_event(event=Event.MEMORY_CANDIDATE_DETECTED, **common)]
    if decision.conflict_with:
        events.append(
            _decision_event(
                event=Event.MEMORY_CONFLICT_DETECTED,
                memory_id=decision.conflict_with,
                **common,
                details={"superseded": bool(decision.supersedes)},
            )
        )
    result = _store(
        tenant_id=tenant_id,
        candidate=candidate,
        decision=decision,
        actor_label=actor_label,
        agent=agent,
        proposer=proposer,
        pending_ttl=pending_ttl,
        fingerprint=fingerprint,
    )
    memory_id = result.memory.pk if result.memory else None
    events.append(_decision_event(event=Event.MEMORY_WRITE_REQUESTED, memory_id=memory_id, **common))
    if decision.kind == DecisionKind.REJECT:
        events.append(_decision_event(event=Event.MEMORY_WRITE_REJECTED, **common))
        if decision.reason_code == "audit_only":
            events.append(_decision_event(event=Event.AUDIT_FACT_RECORDED, **common))
    elif decision.kind == DecisionKind.SAVE:
        events.append(
            _decision_event(
                event=Event.MEMORY_WRITE_APPROVED,
                memory_id=memory_id,
                **common,
                details={"deduplicated": decision.deduplicated, "superseded": decision.supersedes},
            )
        )
    audit_append(events)
    return result


def _store(
    *,
    tenant_id: int,
    candidate: Candidate,
    decision: Decision,
    actor_label: str,
    agent: AgentClient | None,
    proposer: str,
    pending_ttl: int,
    fingerprint: str,
) -> WriteResult:
    if decision.kind == DecisionKind.REJECT:
        return WriteResult(decision)

    if decision.kind == DecisionKind.SAVE and decision.duplicate_of:
        memory = Memory.objects.select_for_update(of=("self",)).get(pk=decision.duplicate_of, tenant_id=tenant_id)
        memory.save(update_fields=["updated_at"])  # refreshed: the person said it again
        touch_subject(tenant_id=tenant_id, user_id=memory.user_id)
        return WriteResult(decision, memory=memory)

    if decision.kind == DecisionKind.SAVE and decision.supersedes:
        old = Memory.objects.get(pk=decision.supersedes, tenant_id=tenant_id)
        memory = memory_update(
            memory=old,
            actor=actor_label,
            content=candidate.content,
            aspects=candidate.aspects,
            sensitivity=decision.sensitivity,
            change="superseded",
        )
        return WriteResult(decision, memory=memory)

    pending = decision.kind == DecisionKind.ASK_CONFIRMATION
    status = Status.ACTIVE
    if pending:
        status = Status.PENDING_APPROVAL if decision.confirm_by == "admin" else Status.PENDING_CONFIRMATION
    memory = memory_create(
        tenant_id=tenant_id,
        new=NewMemory(
            scope=candidate.scope,
            type=(decision.type or candidate.type or MemoryType.TEMPORARY_CONTEXT),
            content=candidate.content,
            source_type=candidate.source_type,
            source_message_id=candidate.source_message_id,
            confidence=candidate.confidence,
            sensitivity=decision.sensitivity,
            entity_types=decision.entity_types,
            expires_at=decision.expires_at,
            status=status,
            retention_policy="ttl" if decision.expires_at else "user_controlled",
            reason_code=decision.reason_code,
            reason=decision.reason,
            policy_version=decision.policy_version,
            conflict_with=decision.conflict_with,
            fingerprint=fingerprint,
            aspects=candidate.aspects,
        ),
        actor=actor_label,
        agent=agent,
        audit=False,
    )
    if not pending:
        return WriteResult(decision, memory=memory)
    confirmation = Confirmation.objects.create(
        tenant_id=tenant_id,
        memory=memory,
        confirm_by=decision.confirm_by or "user",
        requested_by=proposer,
        expires_at=timezone.now() + timedelta(seconds=pending_ttl),
    )
    return WriteResult(decision, memory=memory, confirmation=confirmation)
