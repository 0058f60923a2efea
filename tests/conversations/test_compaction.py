"""Compaction keeps every event, summarizes per §11.1 (restricted text never in a summary), and the
projection for the next model call starts from the latest summary within the token budget."""

from __future__ import annotations

import pytest
from session_helpers import append, fresh

from audit.models import AuditEvent
from conversations.models import Event
from conversations.selectors.context import session_context_build
from conversations.services.compaction import session_compact
from conversations.services.errors import SessionStateError
from conversations.services.events import NewEvent
from conversations.services.tasks import task_state_update

SECRET = "sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3"


@pytest.fixture(autouse=True, scope="module")
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def assistant(text: str) -> NewEvent:
    return NewEvent(kind="assistant_message", content=text)


def compact(session):
    return session_compact(tenant_id=session.tenant_id, session_id=session.pk, actor="test")


def conversation(session):
    return append(
        session,
        "I need to decide whether the enterprise refund for order 123 needs a manual review.",
        assistant("Let me think step by step about the invoice totals and the policy."),
        "thanks!",
        f"My API key is {SECRET} if you need it.",
        "The order was placed in March.",
        "Actually, the order was placed in April.",
        "I'm not sure whether the invoice was sent.",
        assistant("The finance lead approved the refund."),
        NewEvent(kind="tool_result", content='{"status": "pending", "token": "' + SECRET + '"}', tool_call_id="call_1"),
        "Who should own the approval?",
    )


def test_a_compaction_summarizes_without_deleting_anything(world, make_session):
    session = make_session()
    events = conversation(session)
    event, covered = compact(session)
    assert covered == [str(e.pk) for e in events]
    assert Event.objects.filter(session=session).count() == len(events) + 1  # nothing deleted
    text = event.content
    assert text.startswith("Goal: I need to decide whether the enterprise refund")
    assert "the order was placed in April" in text and "placed in March" not in text  # superseded
    assert "not sure whether the invoice was sent" in text  # uncertainty kept
    assert "approved the refund" in text  # decision kept
    assert "Who should own the approval?" in text  # open item
    assert "query result for call_1" in text  # a reference to the tool result, not its content
    assert SECRET not in text and "pending" not in text and "thanks" not in text and "step by step" not in text
    assert event.meta["summarizer"] == "deterministic" and event.meta["dropped"]["restricted"] >= 1
    assert fresh(session).state == "active"
    row = AuditEvent.objects.get(event="session_compacted")
    assert row.details["covered"] == len(events) and SECRET not in str(row.details)


def test_the_projection_is_the_summary_then_the_events_after_it(world, make_session):
    session = make_session()
    conversation(session)
    compact(session)
    later = append(session, "Please draft the reply to the customer.", assistant("Here is a draft."))
    projection = session_context_build(session=fresh(session), token_budget=2000)
    assert [m["kind"] for m in projection.messages] == ["compaction", "user_message", "assistant_message"]
    assert [m["event_id"] for m in projection.messages[1:]] == [str(e.pk) for e in later]
    assert projection.tokens <= 2000 and not projection.truncated


def test_a_second_compaction_rolls_the_first_up(world, make_session):
    session = make_session()
    conversation(session)
    compact(session)
    append(session, "We decided to escalate to the finance team.")
    event, covered = compact(session)
    assert len(covered) == 1
    assert "Goal: I need to decide" in event.content and "decided to escalate" in event.content


def test_the_budget_keeps_the_newest_message_then_the_summary(world, make_session):
    session = make_session()
    conversation(session)
    compact(session)
    newest = append(session, "Short question: is it approved?")[0]
    tight = session_context_build(session=fresh(session), token_budget=50)
    assert tight.messages[-1]["event_id"] == str(newest.pk)
    assert tight.tokens <= 50 and tight.truncated
    assert tight.messages[0]["kind"] == "compaction"  # a cut summary: its first lines (the goal)
    assert tight.messages[0]["content"].startswith("Goal:") and "uncertainties" not in tight.messages[0]["content"]
    tiny = session_context_build(session=fresh(session), token_budget=5)
    assert [m["event_id"] for m in tiny.messages] == [str(newest.pk)] and tiny.tokens <= 5


def test_without_a_summary_the_projection_is_the_most_recent_events_that_fit(world, make_session):
    session = make_session()
    events = append(session, *[f"message number {i} with some words in it" for i in range(300)])
    projection = session_context_build(session=fresh(session), token_budget=100)
    ids = [m["event_id"] for m in projection.messages]
    assert ids == [str(e.pk) for e in events[-len(ids) :]] and 0 < len(ids) < 300
    assert projection.omitted == 300 - len(ids) and projection.tokens <= 100


def test_task_state_enters_the_summary(world, make_session):
    session = make_session()
    append(session, "Review the refund for order 123.")
    task_state_update(
        tenant_id=world.demo.pk,
        session_id=session.pk,
        task_id="refund-review-001",
        values={"goal": "Decide on the refund", "completed_steps": ["collect_order", "check_invoice"],
                "pending_fields": ["approval_owner"], "approval_status": "pending"},
        actor="test",
    )  # fmt: skip
    event, _ = compact(session)
    assert "refund-review-001: collect_order, check_invoice" in event.content
    assert "refund-review-001: waiting for approval_owner" in event.content
    assert "refund-review-001: approval pending" in event.content


def test_nothing_to_compact_and_a_suspended_session_are_refused(world, make_session):
    session = make_session()
    with pytest.raises(SessionStateError):
        compact(session)
    append(session, "one real message here")
    compact(session)
    with pytest.raises(SessionStateError):
        compact(session)


def test_a_summary_stays_small_however_long_the_history(world, make_session):
    session = make_session()
    append(session, *[f"The parcel for order {n} went out on day {n} of the month." for n in range(300)])
    event, covered = compact(session)
    assert len(covered) == 300
    assert len(event.content.splitlines()) <= 75 and len(event.content) < 20_000
    assert "order 299" in event.content and "order 3 " not in event.content  # the newest facts are kept
    assert event.meta["dropped"]["over_limit"] > 0


def test_the_summary_belongs_to_its_branch(world, make_session):
    """Pop back above a compaction, and the projection no longer starts from it; a fork from after it does."""
    from conversations.services.events import session_pop
    from conversations.services.sessions import session_fork

    session = make_session()
    conversation(session)
    event, _ = compact(session)
    later = append(session, "After the summary.")[0]
    branch = session_fork(tenant_id=world.demo.pk, session_id=session.pk, from_event_id=later.pk, actor="t")
    assert session_context_build(session=fresh(branch), token_budget=2000).summary_event_id == str(event.pk)
    session_pop(tenant_id=world.demo.pk, session_id=session.pk, actor="t")
    session_pop(tenant_id=world.demo.pk, session_id=session.pk, actor="t")
    projection = session_context_build(session=fresh(session), token_budget=2000)
    assert projection.summary_event_id is None
    assert projection.messages[-1]["content"] == "Who should own the approval?"
