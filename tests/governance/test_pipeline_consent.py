"""Stage 2 (rule 2): the person's pause and "don't save this session" come first."""

from __future__ import annotations

import pytest

from governance.pipeline.base import Actor, Stop
from governance.pipeline.consent import ConsentStage
from governance.pipeline.testing import make_context
from governance.vocabulary import DecisionKind, Level, Role

stage = ConsentStage()


def test_it_lets_an_ordinary_write_through() -> None:
    ctx = make_context("I like tables.")
    assert stage.run(ctx) is ctx


def test_it_rejects_when_memory_is_paused() -> None:
    ctx = make_context("I like tables.", actor=Actor(role=Role.MEMBER, memory_paused=True))
    with pytest.raises(Stop) as stop:
        stage.run(ctx)
    assert stop.value.decision.kind == DecisionKind.REJECT
    assert stop.value.decision.reason_code == "user_paused"


def test_it_rejects_when_the_session_opted_out_even_for_session_scope() -> None:
    ctx = make_context(
        "We're discussing the budget.",
        level=Level.SESSION,
        actor=Actor(role=Role.MEMBER, session_opt_out=True),
    )
    with pytest.raises(Stop) as stop:
        stage.run(ctx)
    assert stop.value.decision.reason_code == "session_opt_out"


def test_pause_wins_over_opt_out() -> None:
    ctx = make_context("x", actor=Actor(role=Role.MEMBER, memory_paused=True, session_opt_out=True))
    with pytest.raises(Stop) as stop:
        stage.run(ctx)
    assert stop.value.decision.reason_code == "user_paused"


def test_it_rejects_an_agent_the_person_switched_off_even_for_an_explicit_request() -> None:
    ctx = make_context("Remember that I like tables.", actor=Actor(role=Role.MEMBER, agent_blocked=True))
    with pytest.raises(Stop) as stop:
        stage.run(ctx)
    assert stop.value.decision.kind == DecisionKind.REJECT
    assert stop.value.decision.reason_code == "subject_blocked_agent"
    both = Actor(role=Role.MEMBER, agent_blocked=True, session_opt_out=True)
    ctx = make_context("x", level=Level.SESSION, actor=both)
    with pytest.raises(Stop) as stop:
        stage.run(ctx)
    assert stop.value.decision.reason_code == "subject_blocked_agent"
