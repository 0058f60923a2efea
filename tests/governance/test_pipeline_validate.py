"""Stage 1 (rule 1): malformed candidates raise InvalidCandidate, never a decision."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from governance.pipeline.base import InvalidCandidate, Scope
from governance.pipeline.testing import FIXED_NOW, make_context, make_policy
from governance.pipeline.validate import ValidateStage
from governance.vocabulary import Level

stage = ValidateStage()


def test_it_passes_a_valid_candidate_through_unchanged() -> None:
    ctx = make_context("I like tables.")
    assert stage.run(ctx) is ctx


@pytest.mark.parametrize("content", ["", "   ", "\n\t"])
def test_it_rejects_empty_content(content: str) -> None:
    with pytest.raises(InvalidCandidate) as error:
        stage.run(make_context(content))
    assert error.value.field == "content"


def test_it_enforces_the_policy_size_limit() -> None:
    policy = make_policy(max_content_chars=10)
    stage.run(make_context("x" * 10, policy=policy))
    with pytest.raises(InvalidCandidate) as error:
        stage.run(make_context("x" * 11, policy=policy))
    assert error.value.field == "content"


@pytest.mark.parametrize("confidence", [-0.01, 1.01, float("nan")])
def test_it_rejects_confidence_outside_zero_to_one(confidence: float) -> None:
    with pytest.raises(InvalidCandidate) as error:
        stage.run(make_context("I like tables.", confidence=confidence))
    assert error.value.field == "confidence"


@pytest.mark.parametrize("confidence", [0.0, 1.0])
def test_it_accepts_confidence_bounds(confidence: float) -> None:
    stage.run(make_context("I like tables.", confidence=confidence))


@pytest.mark.parametrize(
    ("level", "field"),
    [
        (Level.SESSION, "session_id"),
        (Level.TASK, "task_id"),
        (Level.USER, "user_id"),
        (Level.TEAM, "team"),
        (Level.PROJECT, "project"),
    ],
)
def test_it_requires_the_scope_field_of_the_level(level: Level, field: str) -> None:
    with pytest.raises(InvalidCandidate) as error:
        stage.run(make_context("Use tables.", scope=Scope(level=level)))
    assert error.value.field == f"scope.{field}"


def test_tenant_scope_needs_no_owner_field() -> None:
    stage.run(make_context("All repos must have a CODEOWNERS file.", scope=Scope(level=Level.TENANT)))


def test_it_rejects_an_expiry_in_the_past_or_now() -> None:
    for expires_at in (FIXED_NOW - timedelta(seconds=1), FIXED_NOW):
        with pytest.raises(InvalidCandidate) as error:
            stage.run(make_context("Use tables.", expires_at=expires_at))
        assert error.value.field == "expires_at"


def test_it_rejects_an_expiry_without_time_zone() -> None:
    with pytest.raises(InvalidCandidate):
        stage.run(make_context("Use tables.", expires_at=datetime(2030, 1, 1)))


def test_it_accepts_a_future_expiry() -> None:
    stage.run(make_context("Use tables.", expires_at=FIXED_NOW + timedelta(minutes=5)))
