"""The grammar of an instruction (lexicons/directive.py): who is told to do something."""

import pytest

from governance.pipeline.lexicons.directive import is_directive


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
