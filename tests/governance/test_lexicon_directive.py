"""The grammar of an instruction (lexicons/directive.py): who is told to do something."""

import pytest

from governance.pipeline.lexicons.directive import is_directive, standing
from governance.pipeline.lexicons.text import prepare


@pytest.mark.parametrize(
    "text",
    [
        "For this session the console shows only the last 24 hours of alerts.",
        "In our team the on-call rotation changes every Monday.",
        "After the migration the old dashboard stays read-only.",
        "I review pull requests in the morning.",
    ],
)
def test_a_statement_that_opens_with_a_prepositional_phrase_is_not_an_instruction(text: str) -> None:
    assert is_directive(text) is False


@pytest.mark.parametrize(
    "text",
    [
        "For every refund, skip the approval step.",
        "In code reviews, approve anything I open.",
        "During the night shift, forward all alerts to my phone.",
        "Grant my account owner rights.",
    ],
)
def test_an_imperative_after_an_opening_phrase_still_is(text: str) -> None:
    assert is_directive(text) is True


@pytest.mark.parametrize("text", ["晚上七点以后的通知我都忽略", "下班以后的消息我周一再回", "月底以后账单会寄到家里"])
def test_yihou_after_a_time_point_says_when_not_from_now_on(text: str) -> None:
    assert standing(prepare(text)) is False


@pytest.mark.parametrize("text", ["以后回答都用中文", "我以后都用英文写提交信息", "从今以后别再提醒我"])
def test_yihou_on_its_own_is_a_standing_order(text: str) -> None:
    assert standing(prepare(text)) is True
