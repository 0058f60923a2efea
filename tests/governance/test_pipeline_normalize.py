"""normalize_content: the form dedup fingerprints are computed over (rule 12)."""

from __future__ import annotations

import pytest

from governance.pipeline.normalize import normalize_content


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("记住我喜欢回答里多用表格。", "记住我喜欢回答里多用表格"),
        ("Remember: I like X!", "remember i like x"),
        ("ＡＢＣ　１２３", "abc123"),  # full-width letters, digits and space
        ("「用表格」（谢谢）", "用表格谢谢"),
        ("Prefers   short\nanswers.", "prefers short answers"),
        ("回答，用：中文；好吗？", "回答用中文好吗"),
        ("zero\u200bwidth", "zerowidth"),
    ],
)
def test_it_ignores_width_case_spacing_and_punctuation(a: str, b: str) -> None:
    assert normalize_content(a) == normalize_content(b)


def test_it_keeps_words_and_symbols_apart() -> None:
    assert normalize_content("I like C++") != normalize_content("I like C")
    assert normalize_content("用表格") != normalize_content("用列表")


def test_it_produces_the_bare_form() -> None:
    assert normalize_content("Remember: I like X!") == "rememberilikex"
