"""Phase 1 as a lifecycle job: claim sessions that ended (or idled), extract, propose through the pipeline.

``extract_run`` (the ``extract`` job: Celery, ``run_lifecycle --job extract``) first makes a claim for
every session that became eligible — ended, or idle for the tenant policy's
``extract_after_idle_minutes`` — or that got new events since its last run, then works through up to
``batch_size`` claims, oldest session first (so an earlier session's requests are evidence for a later
one's). Taking a claim is a short transaction with the job's condition re-checked under the row lock
(``memories.lifecycle.base.claim``); the taker holds it for ``LEASE``. A worker that dies leaves its lease
to run out, and the next run takes the claim again; every candidate is entered in the claim's ledger in
the transaction of its write, so the retry writes only what the dead run had not (and two workers racing
for one key: the second's write rolls back on the ledger's unique key). Never run twice to effect.

Skipped, with the reason as the claim's outcome and nothing read: ``dont_save`` sessions (and those the
person opted out of), sub-agent sessions, a person who paused memory. Only the session's own events are
read (a fork's shared prefix was its parent's). Counts are logged, never content.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from conversations.extraction import cues
from conversations.extraction.rules import Extraction, Proposal, SessionView, extract
from conversations.extraction.sanitize import sanitize
from conversations.models import ExtractionClaim, ExtractionSignal, ExtractionWrite, Session
from conversations.selectors.events import branch_events
from conversations.selectors.state import leaf_position, state_at_position
from conversations.tasks_state import task_values
from conversations.vocabulary import TASK_PREFIX, SessionState
from governance.models import PolicyVersion, Tenant
from governance.pipeline.base import Candidate, InvalidCandidate, Scope
from governance.policy import policy_snapshot_for_tenant
from governance.vocabulary import Level
from memories.fingerprints import content_fingerprint
from memories.lifecycle.base import DEFAULT_BATCH_SIZE, JobResult, claim, job_actor, timed_run
from memories.models import MemorySource, SessionOptOut, Subject
from memories.services.write import WriteResult, memory_write
from vault.datakeys import data_key_for

JOB = "extract"
ACTOR = job_actor(JOB)
LEASE = timedelta(minutes=10)
MAX_ATTEMPTS = 5
DEFAULT_IDLE_MINUTES = 30
logger = logging.getLogger("memgov.extraction")

Observer = Callable[[Session, Proposal, "WriteResult | None"], None]
Extractor = Callable[[SessionView], Extraction]


@lru_cache(maxsize=256)
def _idle_minutes_from(document: str) -> int:
    value = json.loads(document).get("extract_after_idle_minutes", DEFAULT_IDLE_MINUTES)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else DEFAULT_IDLE_MINUTES


def extract_after_idle_minutes(*, tenant_id: int) -> int:
    """The tenant policy's ``extract_after_idle_minutes`` (default 30): a session idle this long is
    extracted as if it had ended (and again later if it gets new events)."""
    table = connection.ops.quote_name(PolicyVersion._meta.db_table)
    sql = f"SELECT CAST(document AS TEXT) FROM {table} WHERE tenant_id = %s ORDER BY version DESC LIMIT 1"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_id])
        row = cursor.fetchone()
    return _idle_minutes_from(row[0]) if row else DEFAULT_IDLE_MINUTES


def _eligible(*, tenant_id: int, now: datetime) -> Q:
    idle = now - timedelta(minutes=extract_after_idle_minutes(tenant_id=tenant_id))
    return Q(tenant_id=tenant_id, deleted_at__isnull=True, event_count__gt=0) & (
        Q(state=SessionState.ENDED) | Q(last_active_at__lt=idle)
    )


def claims_enqueue(*, tenant_id: int, now: datetime) -> int:
    """Claims for the tenant's newly eligible sessions, and reopened claims of sessions with new events."""
    eligible = _eligible(tenant_id=tenant_id, now=now)
    fresh = list(Session.objects.filter(eligible, extraction__isnull=True).values_list("pk", flat=True)[:5000])
    ExtractionClaim.objects.bulk_create(
        [ExtractionClaim(session_id=pk, tenant_id=tenant_id) for pk in fresh], ignore_conflicts=True
    )
    reopened = ExtractionClaim.objects.filter(
        tenant_id=tenant_id,
        state=ExtractionClaim.State.DONE,
        session__in=Session.objects.filter(eligible, next_seq__gt=F("extraction__through_seq") + 1),
    ).update(state=ExtractionClaim.State.PENDING)
    return len(fresh) + reopened


def _takeable(now: datetime) -> Q:
    expired = Q(state=ExtractionClaim.State.RUNNING, lease_until__lt=now)
    return Q(state=ExtractionClaim.State.PENDING) | expired


def claim_take(session_id: uuid.UUID, *, now: datetime) -> ExtractionClaim | None:
    """Take one claim (pending, or running with a lease that ran out), or None if another worker has it."""
    with transaction.atomic():
        taken = claim(ExtractionClaim.objects.filter(_takeable(now), pk=session_id))
        if taken is None:
            return None
        taken.attempts += 1
        if taken.attempts > MAX_ATTEMPTS:
            taken.state, taken.outcome, taken.finished_at, taken.lease_until = "failed", "gave_up", now, None
        else:
            taken.state, taken.lease_until = ExtractionClaim.State.RUNNING, now + LEASE
        taken.save(update_fields=["attempts", "state", "outcome", "finished_at", "lease_until"])
        return taken if taken.state == ExtractionClaim.State.RUNNING else None


def _finish(taken: ExtractionClaim, *, state: str, outcome: str, through_seq: int, candidates: int) -> None:
    """Close the claim, if it is still ours (same attempt): a run that outlived its lease changes nothing."""
    ExtractionClaim.objects.filter(pk=taken.pk, state=ExtractionClaim.State.RUNNING, attempts=taken.attempts).update(
        state=state,
        outcome=outcome,
        through_seq=through_seq,
        candidates=F("candidates") + candidates,
        finished_at=timezone.now(),
        lease_until=None,
    )


def _skip_reason(session: Session) -> str:
    if (
        session.dont_save
        or SessionOptOut.objects.filter(
            tenant_id=session.tenant_id, user_id=session.user_id, session_id=str(session.pk)
        ).exists()
    ):
        return "dont_save"
    if session.subagent:
        return "subagent"
    if Subject.objects.filter(tenant_id=session.tenant_id, user_id=session.user_id, memory_paused=True).exists():
        return "paused"
    return ""


@lru_cache(maxsize=64)
def _request_fingerprints(tenant_id: int) -> dict[str, str]:
    """Fingerprint -> label: "request:<name>" (seen) and "proposed:<name>" (already proposed)."""
    labels = [f"{kind}:{name}" for name, _, _ in cues.REQUESTS for kind in ("request", "proposed")]
    return {content_fingerprint(tenant_id=tenant_id, content=label): label for label in labels}


def _fingerprint(tenant_id: int, label: str) -> str:
    return next(fp for fp, name in _request_fingerprints(tenant_id).items() if name == label)


def _view(session: Session) -> SessionView:
    # Its own events only, and none said while it was temporary (before ``save_from_seq``).
    own = [
        e
        for e in branch_events(tenant_id=session.tenant_id, leaf_id=session.leaf_id)
        if e.session_id == session.pk and e.seq >= session.save_from_seq
    ]
    turns, _ = sanitize(own)
    tasks: dict[str, tuple[dict[str, Any], tuple[uuid.UUID, ...]]] = {}
    task_events: dict[str, list[uuid.UUID]] = {}
    for event in own:
        if event.task_id:
            task_events.setdefault(event.task_id, []).append(event.id)
    if task_events:
        state = state_at_position(tenant_id=session.tenant_id, position=leaf_position(session))
        for task_id, ids in task_events.items():
            stored = state.get(f"{TASK_PREFIX}{task_id}")
            if stored:
                tasks[task_id] = (task_values(stored), tuple(ids))
    seen = ExtractionSignal.objects.filter(tenant_id=session.tenant_id, user_id=session.user_id).exclude(
        session_id=session.pk
    )
    names = _request_fingerprints(session.tenant_id)
    labels = {names.get(fp, "") for fp in seen.values_list("fingerprint", flat=True)}
    return SessionView(
        workspace=session.workspace,
        turns=turns,
        tasks=tasks,
        prior_requests=frozenset(n.removeprefix("request:") for n in labels if n.startswith("request:")),
        proposed_requests=frozenset(n.removeprefix("proposed:") for n in labels if n.startswith("proposed:")),
        created_at={e.id: e.created_at for e in own},
    )


def _scope(session: Session, proposal: Proposal) -> Scope:
    user, sid = session.user_id, str(session.pk)
    if proposal.level == Level.PROJECT:
        return Scope(Level.PROJECT, user_id=user, project=session.workspace)
    if proposal.level == Level.SESSION:
        return Scope(Level.SESSION, user_id=user, session_id=sid)
    if proposal.level == Level.TASK:
        return Scope(Level.TASK, user_id=user, session_id=sid, task_id=proposal.task_id)
    return Scope(Level.USER, user_id=user)


def _write(taken: ExtractionClaim, session: Session, proposal: Proposal, observe: Observer | None) -> str:
    """One candidate through the write pipeline, its ledger entry and provenance in the same transaction."""
    if ExtractionWrite.objects.filter(claim_id=taken.pk, key=proposal.key).exists():
        return "already_written"
    candidate = Candidate(
        content=proposal.content,
        scope=_scope(session, proposal),
        source_type=proposal.source_type,
        type=proposal.type,
        source_message_id=str(proposal.event_ids[-1]),
        confidence=proposal.confidence,
    )
    try:
        with transaction.atomic():
            try:
                result: WriteResult | None = memory_write(
                    tenant_id=session.tenant_id,
                    candidate=candidate,
                    actor_label=ACTOR,
                    on_behalf_of=session.user_id,
                    session_id=str(session.pk),
                )
            except InvalidCandidate:
                result = None
            memory = result.memory if result else None
            ExtractionWrite.objects.create(
                claim_id=taken.pk,
                key=proposal.key,
                decision=result.decision.kind if result else "reject",
                reason_code=result.decision.reason_code if result else "invalid_candidate",
                memory_id=memory.pk if memory else None,
            )
            if memory is not None:
                MemorySource.objects.get_or_create(
                    memory=memory,
                    session_id=str(session.pk),
                    defaults={
                        "tenant_id": session.tenant_id,
                        "user_id": session.user_id,
                        "session_at": session.created_at,
                        "event_ids": [str(e) for e in proposal.event_ids],
                    },
                )
    except IntegrityError:  # another worker wrote this key a moment ago: its write stands, ours rolled back
        return "already_written"
    if observe is not None:
        observe(session, proposal, result)
    return "written"


def _signals(session: Session, extraction: Extraction) -> None:
    labels = [f"request:{name}" for name in extraction.requests_seen] + [
        f"proposed:{p.request}" for p in extraction.proposals if p.request and p.rule == "repeated"
    ]
    fingerprints = {_fingerprint(session.tenant_id, label) for label in labels}
    ExtractionSignal.objects.bulk_create(
        [
            ExtractionSignal(session=session, tenant_id=session.tenant_id, user_id=session.user_id, fingerprint=fp)
            for fp in sorted(fingerprints)
        ],
        ignore_conflicts=True,
    )


def _no_endpoint(view: SessionView) -> Extraction:
    from conversations.extraction.llm import ExtractorUnavailable

    raise ExtractorUnavailable("the tenant's policy asks for the LLM extractor and none is set up")


def current_extractor(*, tenant_id: int) -> Extractor:
    """The extractor the tenant's policy chooses (``extractor``): ``rules`` always the deterministic one;
    ``llm`` the configured endpoint (none configured: the session waits, as in an outage); ``default`` the
    endpoint when ``MEMGOV_EXTRACTOR_URL`` is set, else the rules."""
    choice = policy_snapshot_for_tenant(tenant_id=tenant_id).extractor
    if choice == "rules" or (choice == "default" and not settings.MEMGOV_EXTRACTOR_URL):
        return extract
    if not settings.MEMGOV_EXTRACTOR_URL:
        return _no_endpoint
    from conversations.extraction.llm import extract_llm

    return extract_llm


def session_extract_one(
    session_id: uuid.UUID, *, now: datetime, observe: Observer | None = None, extractor: Extractor | None = None
) -> tuple[str, int]:
    """Take this session's claim and extract it: (outcome, candidates written)."""
    taken = claim_take(session_id, now=now)
    if taken is None:
        return "skipped_taken", 0
    session = Session.objects.get(pk=session_id)
    through = session.next_seq - 1
    reason = _skip_reason(session)
    if reason:
        _finish(taken, state=ExtractionClaim.State.SKIPPED, outcome=reason, through_seq=through, candidates=0)
        return f"skipped_{reason}", 0
    data_key_for(tenant_id=session.tenant_id, owner=session.user_id)  # cached once, outside the writes
    try:
        extraction = (extractor or current_extractor(tenant_id=session.tenant_id))(_view(session))
    except Exception as exc:
        from conversations.extraction.llm import ExtractorUnavailable

        if not isinstance(exc, ExtractorUnavailable):
            raise
        # Back in the queue for the next run (each try counts towards MAX_ATTEMPTS).
        ExtractionClaim.objects.filter(pk=taken.pk, attempts=taken.attempts).update(
            state=ExtractionClaim.State.PENDING, lease_until=None
        )
        return "extractor_unavailable", 0
    written = 0
    for proposal in extraction.proposals:
        if _write(taken, session, proposal, observe) == "written":
            written += 1
    _signals(session, extraction)
    _finish(taken, state=ExtractionClaim.State.DONE, outcome="extracted", through_seq=through, candidates=written)
    return "extracted", written


def extract_run(
    *,
    tenant_id: int | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    now: datetime | None = None,
    observe: Observer | None = None,
) -> JobResult:
    """Enqueue what became eligible, then extract up to ``batch_size`` claimed sessions, oldest first."""
    now = now or timezone.now()
    result = JobResult(JOB)
    with timed_run(result):
        tenants = Tenant.objects.order_by("pk").values_list("pk", flat=True)
        if tenant_id is not None:
            tenants = tenants.filter(pk=tenant_id)
        for tid in tenants:
            result.add("enqueued", claims_enqueue(tenant_id=tid, now=now))
        claims = ExtractionClaim.objects.filter(_takeable(now))
        if tenant_id is not None:
            claims = claims.filter(tenant_id=tenant_id)
        ids = list(claims.order_by("session__created_at", "pk").values_list("pk", flat=True)[:batch_size])
        for session_id in ids:
            outcome, written = session_extract_one(session_id, now=now, observe=observe)
            result.add(outcome)
            result.add("candidates", written)
        result.has_more = len(ids) == batch_size
    return result


__all__ = ["ACTOR", "JOB", "extract_run", "session_extract_one"]
