"""Stage 6: rules 8 (high sensitivity), 9 (transient), 10 (long-term by source), 11 (short-lived)."""

from __future__ import annotations

import pytest

from governance.pipeline.base import Stop, WriteContext
from governance.pipeline.confirmation import ConfirmationStage
from governance.pipeline.testing import make_context
from governance.vocabulary import DecisionKind, Level, MemoryType, Sensitivity, SourceType

stage = ConfirmationStage()
S = SourceType


def annotated(
    memory_type: MemoryType = MemoryType.USER_PREFERENCE,
    *,
    sensitivity: Sensitivity = Sensitivity.LOW,
    transient: bool = False,
    **kwargs: object,
) -> WriteContext:
    ctx = make_context("content", **kwargs)  # type: ignore[arg-type]
    return ctx.with_(type=memory_type, sensitivity=sensitivity, transient=transient)


def rejected(ctx: WriteContext) -> str:
    with pytest.raises(Stop) as stop:
        stage.run(ctx)
    assert stop.value.decision.kind == DecisionKind.REJECT
    return stop.value.decision.reason_code


@pytest.mark.parametrize("level", [Level.USER, Level.PROJECT])
def test_high_sensitivity_is_not_kept_long_term(level: Level) -> None:
    assert rejected(annotated(sensitivity=Sensitivity.HIGH, level=level)) == "too_sensitive_for_long_term"


def test_high_sensitivity_in_task_scope_is_saved() -> None:
    ctx = stage.run(annotated(MemoryType.TASK_STATE, sensitivity=Sensitivity.HIGH, level=Level.TASK))
    assert ctx.provisional == DecisionKind.SAVE
    assert ctx.provisional_reason[0] == "short_lived"


def test_high_sensitivity_wins_over_transient() -> None:
    ctx = annotated(sensitivity=Sensitivity.HIGH, transient=True)
    assert rejected(ctx) == "too_sensitive_for_long_term"


def test_transient_content_is_not_kept_long_term() -> None:
    assert rejected(annotated(transient=True)) == "transient"


def test_transient_temporary_context_in_session_is_saved() -> None:
    ctx = stage.run(annotated(MemoryType.TEMPORARY_CONTEXT, transient=True, level=Level.SESSION))
    assert ctx.provisional == DecisionKind.SAVE


@pytest.mark.parametrize("memory_type", [MemoryType.TEMPORARY_CONTEXT, MemoryType.TASK_STATE])
def test_short_lived_types_in_long_term_scope_are_transient(memory_type: MemoryType) -> None:
    assert rejected(annotated(memory_type, level=Level.USER)) == "transient"


@pytest.mark.parametrize(
    "source",
    [S.EXPLICIT_USER_REQUEST, S.EXPLICIT_USER_CONFIRMATION, S.HUMAN_AGENT_CORRECTION, S.ADMIN_CONSOLE],
)
def test_explicit_sources_save_long_term(source: SourceType) -> None:
    ctx = stage.run(annotated(source_type=source))
    assert ctx.provisional == DecisionKind.SAVE
    assert ctx.provisional_reason[0] == "explicit_request"
    assert ctx.confirm_by is None


@pytest.mark.parametrize(
    "source",
    [S.USER_STATEMENT, S.REPEATED_USER_BEHAVIOR, S.EVALUATION_FEEDBACK, S.AGENT_INFERENCE, S.TASK_STATE_MACHINE],
)
def test_inferred_sources_ask_the_user(source: SourceType) -> None:
    ctx = stage.run(annotated(MemoryType.USER_PROFILE, source_type=source, confidence=0.5))
    assert ctx.provisional == DecisionKind.ASK_CONFIRMATION
    assert ctx.confirm_by == "user"
    assert ctx.provisional_reason[0] == "needs_user_confirmation"


@pytest.mark.parametrize("source", [S.AGENT_INFERENCE, S.TASK_STATE_MACHINE])
def test_uncertain_inferences_are_rejected(source: SourceType) -> None:
    assert rejected(annotated(source_type=source, confidence=0.49)) == "low_confidence"


def test_a_statement_needs_no_confidence_threshold() -> None:
    ctx = stage.run(annotated(source_type=S.USER_STATEMENT, confidence=0.1))
    assert ctx.provisional == DecisionKind.ASK_CONFIRMATION


def test_the_threshold_comes_from_the_policy() -> None:
    from governance.pipeline.testing import make_policy

    ctx = annotated(source_type=S.AGENT_INFERENCE, confidence=0.6, policy=make_policy(min_inference_confidence=0.7))
    assert rejected(ctx) == "low_confidence"


@pytest.mark.parametrize(
    ("memory_type", "level"),
    [
        (MemoryType.TEMPORARY_CONTEXT, Level.SESSION),
        (MemoryType.TASK_STATE, Level.TASK),
        (MemoryType.TOOL_RESULT_REF, Level.TASK),
        (MemoryType.TASK_STATE, Level.SESSION),
    ],
)
def test_short_lived_types_in_short_term_scope_are_saved(memory_type: MemoryType, level: Level) -> None:
    ctx = stage.run(annotated(memory_type, level=level, source_type=S.USER_STATEMENT))
    assert ctx.provisional == DecisionKind.SAVE
    assert ctx.provisional_reason[0] == "short_lived"


def test_a_long_term_type_in_session_scope_is_kept_for_the_session() -> None:
    ctx = stage.run(annotated(MemoryType.CONSTRAINT, level=Level.SESSION, source_type=S.USER_STATEMENT))
    assert ctx.provisional == DecisionKind.SAVE
    assert ctx.provisional_reason[0] == "session_scoped"


def test_an_uncertain_inference_is_rejected_in_session_scope_too() -> None:
    ctx = annotated(level=Level.SESSION, source_type=S.AGENT_INFERENCE, confidence=0.2)
    assert rejected(ctx) == "low_confidence"


def test_an_earlier_decision_is_left_alone() -> None:
    ctx = annotated(MemoryType.ORGANIZATION_RULE, sensitivity=Sensitivity.HIGH).with_(
        provisional=DecisionKind.ASK_CONFIRMATION, confirm_by="admin"
    )
    assert stage.run(ctx) is ctx
