"""A temporary conversation (the person's switch on a session): while on, nothing from it becomes memory; once
off, what is said next may be, and nothing said while it was on ever is — whether or not extraction had
already skipped the session. Only the subject's own session can be switched."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from session_helpers import append, fresh

from conversations.extraction.run import extract_run
from conversations.models import ExtractionClaim
from conversations.services.errors import SessionInputError
from conversations.services.events import NewEvent
from conversations.services.sessions import SessionChange, session_temporary_set, session_update
from governance.vocabulary import Status
from memories.models import Memory, SessionOptOut


@pytest.fixture(autouse=True, scope="module")
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def temporary(session, on: bool, user_id: str = "alice"):
    return session_temporary_set(
        tenant_id=session.tenant_id, user_id=user_id, session_id=session.pk, temporary=on, actor=f"user:{user_id}"
    )


def said(session, text: str) -> None:
    append(session, NewEvent(kind="user_message", content=text))


def remembered() -> list[str]:
    return [m.content for m in Memory.objects.filter(user_id="alice").exclude(status=Status.DELETED)]


def test_what_was_said_while_temporary_is_never_extracted(world, make_session):
    session = make_session()
    temporary(session, True)
    said(session, "Remember: I'm on the payments team.")
    temporary(fresh(session), False)
    said(session, "Remember: I prefer answers in English.")
    session_update(tenant_id=session.tenant_id, session_id=session.pk, change=SessionChange(state="ended"), actor="t")
    assert extract_run(tenant_id=world.demo.pk)["extracted"] == 1
    (memory,) = remembered()
    assert "English" in memory and "payments" not in memory


def test_a_session_skipped_while_temporary_is_extracted_again_once_it_is_not(world, make_session):
    session = make_session(dont_save=True)  # the app started it as a temporary conversation
    said(session, "Remember: I'm on the payments team.")
    later = timezone.now() + timedelta(minutes=31)
    assert extract_run(tenant_id=world.demo.pk, now=later)["skipped_dont_save"] == 1
    assert fresh(session).extraction.state == ExtractionClaim.State.SKIPPED
    temporary(fresh(session), False)
    assert not SessionOptOut.objects.filter(session_id=str(session.pk)).exists()
    said(session, "Remember: never push directly to main!")
    assert extract_run(tenant_id=world.demo.pk, now=later + timedelta(minutes=31))["extracted"] == 1
    (memory,) = remembered()
    assert "main" in memory and "payments" not in memory


def test_on_is_dont_save_and_setting_the_same_state_again_changes_nothing(world, make_session):
    session = make_session()
    assert temporary(session, True).dont_save
    assert SessionOptOut.objects.filter(user_id="alice", session_id=str(session.pk)).count() == 1
    assert temporary(fresh(session), True).dont_save
    off = temporary(fresh(session), False)
    assert not off.dont_save and fresh(session).save_from_seq == off.next_seq
    assert not temporary(fresh(session), False).dont_save


def test_only_the_subjects_own_session_can_be_switched(world, make_session):
    session = make_session()
    with pytest.raises(SessionInputError):
        temporary(session, True, user_id="bob")
    assert not fresh(session).dont_save
