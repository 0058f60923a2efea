"""The long-conversation evaluation: turns written and questions asked through the REST API, BM25 beside it."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from evaluation.conversation_eval import plain_tokens
from memories.models import Memory

TURNS = [
    ("Nadia", "I finally adopted a rescue greyhound last weekend, her name is Pepper."),
    ("Tomas", "No way! Congratulations. How is she settling in?"),
    ("Nadia", "She sleeps all day on the sofa, haha. Work is busy though, we ship the atlas release in March."),
    ("Tomas", "My key is sk-proj-4mJ9xQ2vT8rL1nB6cW3zK7pY5hD0fG2sA9eU4iO8wE1tR6yQ, don't tell anyone."),
    ("Nadia", "我下个月要搬到杭州去了，新公司在西湖区。"),
]
QUESTIONS = [
    ("What is the name of Nadia's dog?", ["c1-s1-t1"], "single_hop"),
    ("她要搬去哪个城市？", ["c1-s1-t5"], "single_hop"),
    ("Which API key did Tomas mention?", ["c1-s1-t4"], "single_hop"),
]


def _file(tmp_path: Path, **overrides) -> Path:
    conversation = {
        "id": "c1",
        "language": "mixed",
        "style": "two_people",
        "split": "dev",
        "speakers": ["Nadia", "Tomas"],
        "subject": "Nadia",
        "sessions": [
            {
                "session": 1,
                "date": "2026-01-14",
                "turns": [
                    {"id": f"c1-s1-t{n}", "speaker": speaker, "text": text}
                    for n, (speaker, text) in enumerate(TURNS, start=1)
                ],
            }
        ],
        "questions": [
            {"id": f"c1-q{n}", "question": q, "evidence": evidence, "category": category}
            for n, (q, evidence, category) in enumerate(QUESTIONS, start=1)
        ],
    }
    conversation.update(overrides)
    path = tmp_path / "conversations.jsonl"
    path.write_text(json.dumps(conversation, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _run(*args: str) -> dict:
    out = StringIO()
    call_command("evaluate_conversations", *args, "--json", stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


@pytest.mark.django_db(transaction=True)
def test_turns_go_through_the_gate_and_questions_find_them(tmp_path):
    report = _run(str(_file(tmp_path)), "--top-k", "3")
    assert report["turns"] == 5 and report["questions"] == 3
    # The secret is refused by the gate, so its question can't be answered: by memgov, or by BM25 over what
    # memgov stored; plain BM25 over every turn finds it.
    assert report["writes"]["reject:restricted_data"] == 1
    assert report["evidence_stored"] == pytest.approx(2 / 3, abs=1e-3)
    misses = {miss["question"]: miss for miss in report["misses"]}
    assert misses["c1-q3"]["missing"] == {"c1-s1-t4": "reject:restricted_data"}
    assert misses["c1-q3"]["bm25_found"] == ["c1-s1-t4"]
    assert set(misses) == {"c1-q3"}  # the dog's name and the move (a Chinese question) are found
    assert report["recall_at_k"] == pytest.approx(2 / 3, abs=1e-3)
    assert report["bm25_recall_at_k"] >= report["bm25_stored_recall_at_k"]
    assert not Memory.objects.exists()  # rolled back


@pytest.mark.django_db(transaction=True)
def test_a_question_pointing_at_no_turn_is_a_clear_error(tmp_path):
    path = _file(tmp_path, questions=[{"id": "q", "question": "?", "evidence": ["nope"]}])
    with pytest.raises(CommandError, match="unknown or no evidence"):
        _run(str(path))
    with pytest.raises(CommandError, match="between 1 and 50"):
        _run(str(_file(tmp_path)), "--top-k", "0")


def test_plain_bm25_reads_english_words_and_chinese_words():
    assert plain_tokens("The greyhound's name is Pepper") == ["greyhound's", "name", "pepper"]
    assert "杭州" in plain_tokens("我下个月要搬到杭州去了")
