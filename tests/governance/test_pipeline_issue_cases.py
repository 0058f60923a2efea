"""The smaller misses of the write gate, end to end with the real detector: a consent record goes to
the audit log (§7.4), a role in "this project" is durable, §6.2's own correction example, a profession
is not a health fact, and a piece of work's progress is task state."""

from __future__ import annotations

import pytest

from governance.pipeline import run_pipeline
from governance.pipeline.testing import make_context
from governance.vocabulary import DecisionKind, Level, MemoryType


@pytest.mark.parametrize(
    "content",
    [
        "用户同意了隐私协议 v3",
        "用户已签署数据处理协议。",
        "The user accepted the terms of service v2.",
        "Consent was given.",
    ],
)
def test_a_consent_record_belongs_in_the_audit_log(content: str) -> None:
    decision = run_pipeline(make_context(content))

    assert (decision.kind, decision.reason_code) == (DecisionKind.REJECT, "audit_only")


@pytest.mark.parametrize(
    "content",
    [
        "用户不同意隐私协议的第三条，想先看看再说",
        "如果用户同意了隐私协议，再给他发欢迎邮件",
        "I haven't read the privacy policy yet.",
    ],
)
def test_talk_about_consent_is_not_a_record_of_it(content: str) -> None:
    assert run_pipeline(make_context(content)).reason_code != "audit_only"


@pytest.mark.parametrize(
    "content",
    ["我叫王磊，是本次项目的对接人", "我是本次发布的负责人。"],
)
def test_a_role_in_this_project_is_durable(content: str) -> None:
    decision = run_pipeline(make_context(content))

    assert decision.kind != DecisionKind.REJECT
    assert decision.type == MemoryType.USER_PROFILE


def test_a_mood_in_this_session_is_still_transient() -> None:
    assert run_pipeline(make_context("我们这次聊的是年会预算")).kind == DecisionKind.REJECT


def test_the_correction_example_of_section_6_2_is_a_correction() -> None:
    decision = run_pipeline(make_context("上次分类错了，这个应该归 finance"))

    assert decision.type == MemoryType.CORRECTION


def test_a_profession_is_saved_not_rejected_as_health_data() -> None:
    decision = run_pipeline(make_context("I am a physical therapist."))

    assert decision.kind == DecisionKind.SAVE


@pytest.mark.parametrize(
    "content", ["迁移脚本改完了，接下来要跑回归测试", "Halfway through the import; validation is next."]
)
def test_progress_on_a_task_is_task_state(content: str) -> None:
    decision = run_pipeline(make_context(content, level=Level.TASK))

    assert decision.type == MemoryType.TASK_STATE
