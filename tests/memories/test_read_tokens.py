"""Offline token estimates: both scripts, upper-leaning, additive over lines."""

from __future__ import annotations

import math
import random
import re

import pytest

from memories.read.segment import CJK_CHARS
from memories.read.tokens import estimate_tokens, token_count, total_tokens


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


def _by_the_rules(text: str) -> int:
    """The rules in the module docstring, one pass per kind of piece (the estimate counts them in fewer)."""
    cjk = len(re.findall(f"[{CJK_CHARS}]", text))
    digits = sum(-(-len(run) // 3) for run in re.findall(r"\d+", text))
    words = sum(-(-len(word) // 6) for word in re.findall(rf"[^\W\d_{CJK_CHARS}]+", text))
    others = len(re.findall(rf"[^\w\s{CJK_CHARS}]|_", text))
    return math.ceil(cjk * 1.25) + digits + words + others


def test_the_estimate_follows_the_rules_for_any_text():
    alphabet = (
        "abcXYZ019_ -\t\n\r\x0b\x0c\x1c\x85\xa0.,;<>[]|｜：。，‹›＜＞²³½٣०Ⅳéßİ\u0301\u200b\u2028\u3000"
        "\u3040\u3099\u309b\u30a0\u30fb\u30ff\u3400\u4e00\u9fff\uf900中文回答간😀\U00020000"
    )
    pieces = ["a" * 13, "1" * 7, "é" * 7, "中" * 5, "x9y", "ab12cd345ef"]
    rng = random.Random(4)
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        text += " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 3)))
        assert estimate_tokens(text) == _by_the_rules(text), repr(text)


def test_texts_joined_by_whitespace_are_priced_exactly_from_their_counts():
    pieces = ["部署", "deploy", "2026", "｜", "x_y", "internationalization", "。", "<b>", "回答尽量简短", "m1", ""]
    rng = random.Random(11)
    for _ in range(2000):
        texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 5))) for _ in range(rng.randint(0, 6))]
        joined = rng.choice(["\n", " ", "\t"]).join(texts)
        assert total_tokens(token_count(text) for text in texts) == estimate_tokens(joined), texts
