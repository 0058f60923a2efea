"""Stage 8: TTLs from the policy, the high-sensitivity cap, the requested expiry, and the final decision."""

from __future__ import annotations

from datetime import timedelta

import pytest

from governance.pipeline.base import Decision, Stop, WriteContext
from governance.pipeline.retention import RetentionStage
from governance.pipeline.testing import FIXED_NOW, make_context, make_policy
from governance.vocabulary import DecisionKind, Level, MemoryType, Sensitivity

stage = RetentionStage()


def final(ctx: WriteContext) -> Decision:
    with pytest.raises(Stop) as stop:
        stage.run(ctx)
    return stop.value.decision


def saving(memory_type: MemoryType, **kwargs: object) -> WriteContext:
    sensitivity = kwargs.pop("sensitivity", Sensitivity.LOW)
    ctx = make_context("content", **kwargs)  # type: ignore[arg-type]
    return ctx.with_(
        type=memory_type,
        sensitivity=sensitivity,
        provisional=DecisionKind.SAVE,
        provisional_reason=("short_lived", "Kept for a while."),
    )


def test_the_type_ttl_comes_from_the_policy() -> None:
    decision = final(saving(MemoryType.TOOL_RESULT_REF, level=Level.TASK))
    assert decision.expires_at == FIXED_NOW + timedelta(hours=1)
    assert (decision.kind, decision.reason_code, decision.reason) == ("save", "short_lived", "Kept for a while.")


def test_no_ttl_means_no_expiry() -> None:
    assert final(saving(MemoryType.USER_PREFERENCE)).expires_at is None


def test_a_long_term_type_in_session_scope_takes_the_session_ttl() -> None:
    decision = final(saving(MemoryType.USER_PREFERENCE, level=Level.SESSION))
    assert decision.expires_at == FIXED_NOW + timedelta(days=1)


def test_high_sensitivity_in_task_scope_is_capped() -> None:
    decision = final(saving(MemoryType.TASK_STATE, level=Level.TASK, sensitivity=Sensitivity.HIGH))
    assert decision.expires_at == FIXED_NOW + timedelta(hours=1)  # not the 7-day task TTL
    policy = make_policy(high_sensitivity_ttl=600)
    decision = final(saving(MemoryType.TASK_STATE, level=Level.TASK, sensitivity=Sensitivity.HIGH, policy=policy))
    assert decision.expires_at == FIXED_NOW + timedelta(minutes=10)


def test_a_requested_expiry_only_shortens() -> None:
    sooner = FIXED_NOW + timedelta(minutes=5)
    assert final(saving(MemoryType.TOOL_RESULT_REF, level=Level.TASK, expires_at=sooner)).expires_at == sooner
    later = FIXED_NOW + timedelta(days=30)
    capped = final(saving(MemoryType.TOOL_RESULT_REF, level=Level.TASK, expires_at=later))
    assert capped.expires_at == FIXED_NOW + timedelta(hours=1)
    assert final(saving(MemoryType.USER_PREFERENCE, expires_at=later)).expires_at == later


def test_ask_confirmation_gets_no_expiry_here() -> None:
    ctx = saving(MemoryType.TOOL_RESULT_REF, level=Level.TASK).with_(
        provisional=DecisionKind.ASK_CONFIRMATION, confirm_by="user"
    )
    decision = final(ctx)
    assert decision.kind == DecisionKind.ASK_CONFIRMATION
    assert decision.expires_at is None
    assert decision.confirm_by == "user"


def test_the_decision_carries_the_policy_version() -> None:
    assert final(saving(MemoryType.USER_PREFERENCE, policy=make_policy(version=42))).policy_version == 42


def test_it_refuses_to_invent_a_decision() -> None:
    with pytest.raises(RuntimeError):
        stage.run(make_context("content"))
