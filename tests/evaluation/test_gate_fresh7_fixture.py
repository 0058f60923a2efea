"""Shape checks for fixtures/gate/fresh7.jsonl, the eighth held-out gate set (fixtures/gate/README.md).

Plain pytest: no database. It checks what the README promises about the file — split, ids, classes, channels,
languages, labels — not how the gate scores it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

FRESH7 = Path(__file__).resolve().parents[2] / "fixtures" / "gate" / "fresh7.jsonl"
ATTACK_TAXONOMIES = {"shen", "dna", "coai", "multilingual"}
SHEN_SCENARIOS = {
    "illegal_activity",
    "hate_speech",
    "malware",
    "physical_harm",
    "economic_harm",
    "fraud",
    "pornography",
    "political_lobbying",
    "privacy_violence",
    "legal_opinion",
    "financial_advice",
    "health_consultation",
    "government_decision",
}
DNA_AREAS = {
    "information_hazard",
    "malicious_uses",
    "discrimination_exclusion_toxicity",
    "misinformation_harms",
    "human_chatbot_interaction_harms",
}
COAI_ATTACKS = {
    "goal_hijacking",
    "prompt_leaking",
    "role_play_instruction",
    "unsafe_instruction_topic",
    "inquiry_with_unsafe_opinion",
    "reverse_exposure",
}


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return [json.loads(line) for line in FRESH7.read_text(encoding="utf-8").splitlines()]


def test_every_case_is_in_the_fresh7_split_with_a_well_formed_id(cases: list[dict]) -> None:
    assert len(cases) >= 550
    assert len({c["id"] for c in cases}) == len(cases)
    assert len({c["candidate"]["content"] for c in cases}) == len(cases)
    for case in cases:
        assert case["split"] in ("fresh7", "fresh7-read")
        prefix = {"attacks": "fresh7-atk-", "benign": "fresh7-ben-"}[case["set"]]
        assert case["id"].startswith(prefix), case["id"]
        assert case["facets"]["lang"] in {"en", "zh"}


def test_attacks_cover_the_four_taxonomies_and_are_all_rejected(cases: list[dict]) -> None:
    attacks = [c for c in cases if c["set"] == "attacks"]
    assert len(attacks) >= 300
    classes = {c["class"] for c in attacks}
    assert {c.split(":")[0] for c in classes} == ATTACK_TAXONOMIES
    assert {c.split(":")[1] for c in classes if c.startswith("shen:")} == SHEN_SCENARIOS
    assert {c.split(":")[1] for c in classes if c.startswith("dna:")} == DNA_AREAS
    assert {c.split(":")[1] for c in classes if c.startswith("coai:")} == COAI_ATTACKS
    assert len({c for c in classes if c.startswith("multilingual:")}) >= 10
    for case in attacks:
        assert case["expected"]["decision"] == "reject", case["id"]


def test_a_quarter_of_the_attacks_arrive_as_untrusted_content_at_session_scope(cases: list[dict]) -> None:
    attacks = [c for c in cases if c["set"] == "attacks"]
    untrusted = [c for c in attacks if c["candidate"]["source"]["source_type"] in {"tool_result", "web_content"}]
    assert 0.2 <= len(untrusted) / len(attacks) <= 0.3
    for case in untrusted:
        assert case["candidate"]["type"] == "tool_result_ref"
        assert case["candidate"]["scope"]["level"] == "session"
    for case in attacks:
        if case not in untrusted:
            assert case["candidate"]["source"]["source_type"] == "explicit_user_request"
            assert case["candidate"]["scope"] == {"level": "user"}


def test_look_alikes_are_kept_and_both_languages_are_balanced(cases: list[dict]) -> None:
    benign = [c for c in cases if c["set"] == "benign"]
    assert len(benign) >= 250
    for case in benign:
        assert case["class"].startswith("benign:")
        assert case["expected"]["decision"] in {"save", "ask_confirmation"}, case["id"]
    written_in = Counter(c["facets"]["language"] for c in cases)
    assert abs(written_in["en"] - written_in["zh"]) <= 0.05 * len(cases)
    assert written_in["en"] + written_in["zh"] >= 0.85 * len(cases)


def test_evaluate_policy_scores_the_fresh7_split_on_its_own() -> None:
    from evaluation.management.commands.evaluate_policy import Command

    parser = Command().create_parser("manage.py", "evaluate_policy")
    assert parser.parse_args([str(FRESH7), "--split", "fresh7"]).split == "fresh7"
