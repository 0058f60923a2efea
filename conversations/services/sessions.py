"""A session's life: create, change (state, title, "don't save"), fork.

"Don't save this session" takes effect through the write pipeline's own check (rule 2 reads
``memories.SessionOptOut``): setting ``dont_save`` records the opt-out for the session's id. An agent
can't take it back — it must not be able to undo what the person asked for; the person can, with the
"temporary" switch on their sessions list (:func:`session_temporary_set`), and what was said while the
session was temporary is still never learned from.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from audit.events import Event as AuditKind
from audit.services import audit_append
from conversations.models import ExtractionClaim, Session
from conversations.selectors.events import Position, event_visible_to
from conversations.services.audit import session_audit
from conversations.services.errors import SessionInputError, SessionStateError
from conversations.services.locking import session_lock
from conversations.validation import check_ident, check_text
from conversations.vocabulary import REQUESTABLE_STATES, TRANSITIONS, SessionState
from memories.services.subjects import session_opt_out, session_opt_out_withdraw

TITLE_MAX = 200
WORKSPACE_MAX = 255


def _checked_title(title: str | None) -> str | None:
    return check_text("title", title, limit=TITLE_MAX)


@transaction.atomic
def session_create(
    *,
    tenant_id: int,
    user_id: str,
    app: str,
    actor: str,
    workspace: str = "",
    title: str | None = None,
    dont_save: bool = False,
    subagent: bool = False,
) -> Session:
    """A new, empty session (state ``created``) of a subject in an app (``subagent``: a sub-agent's)."""
    check_ident("user_id", user_id, required=True)
    check_ident("app", app, required=True)
    check_text("workspace", workspace, limit=WORKSPACE_MAX)
    now = timezone.now()
    session = Session(
        tenant_id=tenant_id,
        user_id=user_id,
        app=app,
        workspace=workspace,
        title=_checked_title(title),
        dont_save=dont_save,
        subagent=subagent,
        last_active_at=now,
    )
    session.save(force_insert=True)
    if dont_save:
        session_opt_out(tenant_id=tenant_id, user_id=user_id, session_id=str(session.pk), actor=actor)
    audit_append([session_audit(session=session, event=AuditKind.SESSION_CREATED, actor=actor, dont_save=dont_save)])
    return session


@dataclass(frozen=True)
class SessionChange:
    state: SessionState | str | None = None
    title: str | None = None
    title_given: bool = False  # title=None with title_given clears it
    dont_save: bool | None = None


@transaction.atomic
def session_update(*, tenant_id: int, session_id: uuid.UUID, change: SessionChange, actor: str) -> Session:
    """Suspend, resume or end a session; retitle it; mark it "don't save"."""
    session = session_lock(tenant_id=tenant_id, session_id=session_id)
    fields: list[str] = []
    audits: list[dict] = []
    if change.state is not None:
        try:
            wanted = SessionState(change.state)
        except ValueError:
            wanted = None
        if wanted not in REQUESTABLE_STATES:
            choices = ", ".join(s.value for s in REQUESTABLE_STATES)
            raise SessionInputError("state", f"use one of {choices}")
        current = SessionState(session.state)
        if wanted != current:
            if wanted not in TRANSITIONS[current]:
                raise SessionStateError(f"a {current} session can't become {wanted}")
            session.state = wanted
            fields.append("state")
            if wanted == SessionState.ENDED:
                session.ended_at = timezone.now()
                fields.append("ended_at")
                audits.append(
                    session_audit(
                        session=session,
                        event=AuditKind.SESSION_ENDED,
                        actor=actor,
                        events=session.event_count,
                        tokens=session.total_tokens,
                    )
                )
            else:
                audits.append(
                    session_audit(
                        session=session,
                        event=AuditKind.SESSION_UPDATED,
                        actor=actor,
                        state_from=current,
                        state_to=wanted,
                    )
                )
    if change.title_given or change.title is not None:
        session.title = _checked_title(change.title)
        fields.append("title")
        audits.append(session_audit(session=session, event=AuditKind.SESSION_UPDATED, actor=actor, changed=["title"]))
    if change.dont_save is not None and change.dont_save != session.dont_save:
        if not change.dont_save:
            raise SessionInputError("dont_save", 'a session marked "don\'t save" stays so')
        session.dont_save = True
        fields.append("dont_save")
        session_opt_out(tenant_id=tenant_id, user_id=session.user_id, session_id=str(session.pk), actor=actor)
    if fields:
        session.save(update_fields=fields)
    if audits:
        audit_append(audits)
    return session


@transaction.atomic
def session_temporary_set(
    *, tenant_id: int, user_id: str, session_id: uuid.UUID, temporary: bool, actor: str
) -> Session:
    """The person's one switch for a conversation of theirs: temporary (nothing from it becomes memory) or not.

    On is "don't save" (the opt-out rule 2 checks; extraction skips the session). Off — which only the
    person's own page offers — withdraws the opt-out and moves ``save_from_seq`` to the next event, so
    what is said from now on may be remembered as usual while nothing said before, when the session was
    temporary, ever is; an extraction skipped because of the opt-out is free to run again on new events.
    Neither direction deletes anything. The session must be the subject's own (else SessionInputError).
    """
    session = session_lock(tenant_id=tenant_id, session_id=session_id)
    if session.user_id != user_id:
        raise SessionInputError("session_id", "no such session")
    if temporary == session.dont_save:
        return session
    if temporary:
        return session_update(
            tenant_id=tenant_id, session_id=session.pk, change=SessionChange(dont_save=True), actor=actor
        )
    session.dont_save = False
    session.save_from_seq = session.next_seq
    session.save(update_fields=["dont_save", "save_from_seq"])
    session_opt_out_withdraw(tenant_id=tenant_id, user_id=user_id, session_id=str(session.pk), actor=actor)
    ExtractionClaim.objects.filter(
        session_id=session.pk, state=ExtractionClaim.State.SKIPPED, outcome="dont_save"
    ).update(state=ExtractionClaim.State.DONE)
    return session


@transaction.atomic
def session_fork(
    *, tenant_id: int, session_id: uuid.UUID, from_event_id: object, actor: str, title: str | None = None
) -> Session:
    """A new session whose history is the source's branch up to ``from_event_id`` (any event the source
    sees), shared, not copied: the cost doesn't depend on where the event is. The source is untouched."""
    source = session_lock(tenant_id=tenant_id, session_id=session_id)
    point: Position | None = event_visible_to(session=source, event_id=from_event_id)
    if point is None:
        raise SessionInputError("from_event_id", "no such event in this session")
    now = timezone.now()
    fork = Session(
        tenant_id=tenant_id,
        user_id=source.user_id,
        app=source.app,
        workspace=source.workspace,
        title=_checked_title(title) if title is not None else source.title,
        state=SessionState.ACTIVE,
        # The prefix is the source's history: what it was not to save, the fork isn't either.
        dont_save=source.dont_save,
        parent=source,
        fork_event_id=point.id,
        leaf_id=point.id,
        leaf_seq=point.seq,
        leaf_depth=point.depth,
        leaf_base_id=point.base_id,
        leaf_since_base=point.since_base,
        leaf_summary_id=point.summary_id,
        # Seqs grow along every branch: the fork's own events come after the point's.
        next_seq=point.seq + 1,
        last_active_at=now,
    )
    fork.save(force_insert=True)
    if fork.dont_save:
        session_opt_out(tenant_id=tenant_id, user_id=fork.user_id, session_id=str(fork.pk), actor=actor)
    audit_append(
        [
            session_audit(
                session=fork,
                event=AuditKind.SESSION_FORKED,
                actor=actor,
                parent_session_id=str(source.pk),
                from_event_id=str(point.id),
                depth=point.depth,
            )
        ]
    )
    return fork
