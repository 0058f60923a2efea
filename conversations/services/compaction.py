"""Non-destructive compaction (§11, seed 001): a ``compaction`` event that holds a summary of the branch
so far and the ids of the events it covers (§11.2 ``source_message_ids``). Nothing is deleted; the
projection for the next model call starts from the latest summary.

The session is ``compacting`` while the summary is made, outside any transaction (an LLM summarizer may
take seconds); appends still land meanwhile and come after what the summary covers.
"""

from __future__ import annotations

import uuid

from django.db import transaction

from audit.events import Event as AuditKind
from audit.services import audit_append
from conversations.models import Event, Session
from conversations.selectors.events import branch_events
from conversations.selectors.state import leaf_position, state_at_position
from conversations.services.audit import session_audit
from conversations.services.errors import SessionStateError
from conversations.services.events import NewEvent, session_events_append
from conversations.services.locking import session_lock
from conversations.summarize import Summary, SummaryInput, summarize
from conversations.summarize.base import SourceEvent
from conversations.tasks_state import task_values
from conversations.vocabulary import TASK_PREFIX, EventKind, SessionState


def _uncompacted(session: Session) -> tuple[Event | None, list[Event]]:
    assert session.leaf_id is not None
    events = branch_events(tenant_id=session.tenant_id, leaf_id=session.leaf_id)
    previous = next((e for e in reversed(events) if e.kind == EventKind.COMPACTION), None)
    through = (previous.meta or {}).get("through_depth", 0) if previous is not None else 0
    return previous, [e for e in events if e.depth > through and e.kind != EventKind.COMPACTION]


def _source(session: Session, previous: Event | None, covered: list[Event]) -> SummaryInput:
    state = state_at_position(tenant_id=session.tenant_id, position=leaf_position(session))
    tasks = tuple(
        (key[len(TASK_PREFIX) :], task_values(value))
        for key, value in sorted(state.items())
        if key.startswith(TASK_PREFIX)
    )
    return SummaryInput(
        events=tuple(
            SourceEvent(
                seq=e.seq,
                kind=e.kind,
                content=e.content or "",
                tool_call_id=e.tool_call_id,
                task_id=e.task_id,
                result_type=(e.meta or {}).get("result_type", ""),
            )
            for e in covered
        ),
        previous=(previous.content or "") if previous is not None else "",
        tasks=tasks,
    )


def _set_state(*, tenant_id: int, session_id: uuid.UUID, state: SessionState) -> Session:
    session = session_lock(tenant_id=tenant_id, session_id=session_id)
    session.state = state
    session.save(update_fields=["state"])
    return session


def session_compact(*, tenant_id: int, session_id: uuid.UUID, actor: str) -> tuple[Event, list[str]]:
    """Summarize the branch since the last compaction; returns the compaction event and the ids it covers.

    Raises SessionStateError when the session isn't active or has nothing new to compact, and
    ``SummarizerUnavailable`` when a configured LLM summarizer fails (the session is active again).
    """
    with transaction.atomic():
        session = session_lock(tenant_id=tenant_id, session_id=session_id)
        if session.state != SessionState.ACTIVE:
            raise SessionStateError(f"only an active session can be compacted; this one is {session.state}")
        if session.leaf_id is None:
            raise SessionStateError("the session has no events to compact", code="empty")
        previous, covered = _uncompacted(session)
        if not covered:
            raise SessionStateError("nothing new since the last compaction", code="empty")
        source = _source(session, previous, covered)
        session.state = SessionState.COMPACTING
        session.save(update_fields=["state"])
    try:
        summary: Summary = summarize(source)
    except BaseException:
        with transaction.atomic():
            _set_state(tenant_id=tenant_id, session_id=session_id, state=SessionState.ACTIVE)
        raise
    covered_ids = [str(e.pk) for e in covered]
    last = covered[-1]
    with transaction.atomic():
        appended = session_events_append(
            tenant_id=tenant_id,
            session_id=session_id,
            events=[
                NewEvent(
                    kind=EventKind.COMPACTION,
                    content=summary.render(),
                    meta={
                        "covers": covered_ids,
                        "through": str(last.pk),
                        "through_depth": last.depth,
                        "previous": str(previous.pk) if previous is not None else None,
                        "summarizer": summary.summarizer,
                        "dropped": summary.dropped,
                    },
                )
            ],
            actor=actor,
            internal=True,
        )
        session = _set_state(tenant_id=tenant_id, session_id=session_id, state=SessionState.ACTIVE)
        event = appended[0].event
        audit_append(
            [
                session_audit(
                    session=session,
                    event=AuditKind.SESSION_COMPACTED,
                    actor=actor,
                    event_id=str(event.pk),
                    covered=len(covered_ids),
                    summarizer=summary.summarizer,
                    **{f"dropped_{reason}": n for reason, n in sorted(summary.dropped.items())},
                )
            ]
        )
    return event, covered_ids
