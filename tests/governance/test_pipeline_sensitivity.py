"""Stage 4 (rule 3): sensitivity is the max of detected, declared and the type's floor; restricted stops."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from governance.pipeline.base import Stop
from governance.pipeline.sensitivity import SensitivityStage
from governance.pipeline.testing import make_context
from governance.vocabulary import DecisionKind, MemoryType, Sensitivity


@dataclass(frozen=True)
class Finding:
    level: Sensitivity
    entity_types: tuple[str, ...] = ()


def detecting(level: Sensitivity, *entity_types: str) -> SensitivityStage:
    return SensitivityStage(detect=lambda _text: Finding(level, entity_types))


def test_it_takes_the_detected_level_and_entity_types() -> None:
    ctx = detecting(Sensitivity.HIGH, "ORDER_ID").run(make_context("order B-2231"))
    assert ctx.sensitivity == Sensitivity.HIGH
    assert ctx.entity_types == ("ORDER_ID",)


def test_a_declaration_raises_but_never_lowers() -> None:
    raised = detecting(Sensitivity.LOW).run(make_context("x", sensitivity=Sensitivity.HIGH))
    assert raised.sensitivity == Sensitivity.HIGH
    kept = detecting(Sensitivity.HIGH).run(make_context("x", sensitivity=Sensitivity.LOW))
    assert kept.sensitivity == Sensitivity.HIGH


def test_a_profile_is_at_least_medium() -> None:
    ctx = make_context("I'm a PhD student.").with_(type=MemoryType.USER_PROFILE)
    assert detecting(Sensitivity.LOW).run(ctx).sensitivity == Sensitivity.MEDIUM
    preference = make_context("I like tables.").with_(type=MemoryType.USER_PREFERENCE)
    assert detecting(Sensitivity.LOW).run(preference).sensitivity == Sensitivity.LOW


def test_restricted_data_is_rejected_with_types_not_values() -> None:
    secret = "sk-live-abcdef0123456789"
    with pytest.raises(Stop) as stop:
        detecting(Sensitivity.RESTRICTED, "SECRET_API_KEY").run(make_context(f"my key {secret}"))
    decision = stop.value.decision
    assert decision.kind == DecisionKind.REJECT
    assert decision.reason_code == "restricted_data"
    assert decision.sensitivity == Sensitivity.RESTRICTED
    assert decision.entity_types == ("SECRET_API_KEY",)
    assert secret not in decision.reason


def test_a_restricted_declaration_is_enough() -> None:
    with pytest.raises(Stop) as stop:
        detecting(Sensitivity.LOW).run(make_context("x", sensitivity=Sensitivity.RESTRICTED))
    assert stop.value.decision.reason_code == "restricted_data"


def test_the_default_detector_is_the_recognizers_package(monkeypatch: pytest.MonkeyPatch) -> None:
    recognizers = pytest.importorskip("governance.recognizers")
    if not hasattr(recognizers, "detect_sensitivity"):
        pytest.skip("the recognizers package has no detect_sensitivity yet")
    monkeypatch.setattr(recognizers, "detect_sensitivity", lambda _text: Finding(Sensitivity.HIGH, ("X",)))
    assert SensitivityStage().run(make_context("anything")).sensitivity == Sensitivity.HIGH
