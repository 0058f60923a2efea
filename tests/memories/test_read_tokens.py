"""Offline token estimates: both scripts, upper-leaning, additive over lines."""

from __future__ import annotations

import pytest

from memories.read.tokens import estimate_tokens


def test_nothing_costs_nothing():
    assert estimate_tokens("") == 0
    assert estimate_tokens(" \n\t ") == 0


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("The quick brown fox jumps over the lazy dog", 9),  # one per short word
        ("internationalization", 4),  # 20 letters: one token per 6
        ("2026-07-07", 2 + 1 + 1 + 1 + 1),  # digits in threes, dashes one each
        ("回答尽量简短", 8),  # 6 CJK characters × 1.25, rounded up
        ("回答尽量简短。", 9),  # fullwidth punctuation counts one
        ("</user_memory>", 6),  # <, /, _ and > count one each, and the two words
    ],
)
def test_known_texts(text, tokens):
    assert estimate_tokens(text) == tokens


def test_chinese_costs_more_per_character_than_english():
    assert estimate_tokens("用中文回答") > estimate_tokens("hello")


def test_lines_priced_one_by_one_never_undercount_the_whole():
    lines = [
        "- [m1 | user preference] 回答尽量简短",
        "- [m2 | constraint] never deploy on fridays",
        "规则：以当前输入为准",
    ]
    assert estimate_tokens("\n".join(lines)) <= sum(estimate_tokens(line) for line in lines)


def test_longer_text_never_costs_less():
    text = "Prefers short answers, 用中文回答, 123456"
    costs = [estimate_tokens(text[:end]) for end in range(len(text) + 1)]
    assert costs == sorted(costs)
