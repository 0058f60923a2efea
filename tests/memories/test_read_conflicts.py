"""§9.3: an instruction that contradicts an injected memory is found, in Chinese and English, deterministically."""

from __future__ import annotations

import pytest

from memories.read.conflicts import DIMENSIONS, detect_conflicts, stance

BY_NAME = {d.name: d for d in DIMENSIONS}


def conflicts(instruction: str, *memories: str) -> list[tuple[str, str, str, str]]:
    found = detect_conflicts(instruction, [(str(i), "user_preference", m) for i, m in enumerate(memories)])
    return [(c.memory_id, c.dimension, c.memory_stance, c.instruction_stance) for c in found]


def test_the_seed_example_in_english_and_chinese():
    assert conflicts("Explain every step in detail.", "Prefers short answers") == [
        ("0", "verbosity", "brief", "detailed")
    ]
    assert conflicts("请详细解释每一步。", "回答尽量简短") == [("0", "verbosity", "brief", "detailed")]
    assert conflicts("请详细解释每一步", "Prefers concise replies") == [("0", "verbosity", "brief", "detailed")]


@pytest.mark.parametrize(
    ("instruction", "memory", "dimension"),
    [
        ("Reply in English this time", "Answer in Chinese, step by step", "answer_language"),
        ("这次请用英文回答", "用户偏好：用中文回答", "answer_language"),
        ("Put the comparison in a table", "Don't use tables", "tables"),
        ("不要用表格", "喜欢用表格对比方案", "tables"),
        ("请重新构建", "用户明确说不需要重新构建", "rebuild"),
        ("No need to rebuild", "Always rebuild after merging", "rebuild"),
        ("Write it as prose, no bullet points", "Prefers bullet points", "lists"),
        ("Keep it casual", "Prefers a formal tone", "tone"),
        ("No emoji please", "Likes emoji in answers", "emoji"),
        ("Show me code examples", "Don't include code examples", "code_examples"),
        ("Don't be too detailed", "Wants detailed explanations", "verbosity"),
    ],
)
def test_opposite_stances_conflict(instruction, memory, dimension):
    assert [c[1] for c in conflicts(instruction, memory)] == [dimension]


@pytest.mark.parametrize(
    ("instruction", "memory"),
    [
        ("Keep it short", "Prefers short answers"),  # same stance
        ("用中文回答", "Works on the English documentation"),  # not about the answer's language
        ("Summarize the incident", "Prefers short answers"),  # the instruction takes no stance
        ("Explain in detail", "Likes tables"),  # different dimensions
        ("Explain in detail", "Short answers for chat, detailed ones for reports"),  # ambiguous memory
        ("", "Prefers short answers"),
    ],
)
def test_no_conflict(instruction, memory):
    assert conflicts(instruction, memory) == []


def test_negation_turns_the_stance():
    assert stance("no tables please", BY_NAME["tables"]) == "without"
    assert stance("put it in a table", BY_NAME["tables"]) == "with"
    assert stance("用户不喜欢表格", BY_NAME["tables"]) == "without"
    assert stance("不要太详细", BY_NAME["verbosity"]) == "brief"


def test_each_conflicting_memory_is_listed_in_order():
    found = conflicts("Explain in detail", "Prefers short answers", "Likes tables", "回答简洁")
    assert [c[0] for c in found] == ["0", "2"]
