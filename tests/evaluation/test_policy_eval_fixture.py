"""Format checks for fixtures/policy_eval.jsonl, the policy evaluation set (DESIGN.md).

Plain pytest: no database, no Django. It checks the file's shape and coverage, not the engine.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "policy_eval.jsonl"

TYPES = {
    "user_preference",
    "user_profile",
    "task_state",
    "tool_result_ref",
    "constraint",
    "correction",
    "temporary_context",
    "organization_rule",
    "project_rule",
}
SHORT_LIVED_TYPES = {"temporary_context", "task_state", "tool_result_ref"}
LEVELS = {"session", "task", "user", "team", "project", "tenant"}
SHORT_LEVELS = {"session", "task"}
LEVEL_FIELD = {"session": "session_id", "task": "task_id", "team": "team", "project": "project"}
SOURCES = {
    "explicit_user_request",
    "explicit_user_confirmation",
    "user_statement",
    "repeated_user_behavior",
    "agent_inference",
    "task_state_machine",
    "tool_result",
    "human_agent_correction",
    "evaluation_feedback",
    "web_content",
    "document_content",
    "admin_console",
}
ROLES = {"member", "team_owner", "tenant_admin", "compliance_officer", "agent"}
DECISIONS = {"save", "ask_confirmation", "reject"}
SENSITIVITIES = {"low", "medium", "high", "restricted"}
CONFIRM_BY = {"user", "admin"}
REASON_RULE = {
    "user_paused": 2,
    "session_opt_out": 2,
    "restricted_data": 3,
    "policy_override": 4,
    "untrusted_source": 5,
    "audit_only": 6,
    "not_authorized": 7,
    "too_sensitive_for_long_term": 8,
    "transient": 9,
    "low_confidence": 10,
}
USER_LEVEL_TYPES = {"user_preference", "user_profile", "constraint", "correction", "project_rule"}

CASE_KEYS = {"id", "actor", "existing", "candidate", "expected"}
ACTOR_KEYS = {"role", "memory_paused", "session_opt_out", "owned_teams"}
CANDIDATE_KEYS = {"type", "content", "scope", "source", "confidence"}
EXPECTED_KEYS = {"decision", "reason_code", "type", "sensitivity", "deduplicated", "confirm_by"}
ID_PATTERN = re.compile(r"^r(?:[2-9]|1[0-2])-[a-z0-9]+(?:-[a-z0-9]+)*-(?:zh|en|mix)-\d{2}$")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
ID_CHECK_CHARS = "10X98765432"
RESIDENT_ID = re.compile(r"(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])")
CARD_LIKE = re.compile(r"(?<![\d.,-])\d(?:[ -]?\d){12,18}(?![\d.,])")


def resident_id_ok(value: str) -> bool:
    total = sum(int(d) * w for d, w in zip(value[:17], ID_WEIGHTS, strict=True))
    return ID_CHECK_CHARS[total % 11] == value[17].upper()


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def load_lines() -> list[str]:
    return FIXTURE.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return [json.loads(line) for line in load_lines()]


def rules_of(case: dict) -> set[int]:
    """The rules of DESIGN's table that a case exercises, inferred from its expectation."""
    exp, cand = case["expected"], case["candidate"]
    level = cand["scope"]["level"]
    rules: set[int] = set()
    if exp.get("reason_code"):
        rules.add(REASON_RULE[exp["reason_code"]])
    if exp.get("deduplicated") is True or (case.get("existing") and exp["decision"] != "reject"):
        rules.add(12)
    if exp["decision"] == "ask_confirmation":
        rules.add(7 if exp.get("confirm_by") == "admin" else 10)
    if exp["decision"] == "save":
        if level in SHORT_LEVELS:
            rules.add(8 if exp.get("sensitivity") == "high" else 11)
        elif cand["type"] in USER_LEVEL_TYPES or exp.get("type") in USER_LEVEL_TYPES:
            rules.add(10)
    return rules


def test_every_line_is_a_json_object() -> None:
    lines = load_lines()
    assert lines, "the evaluation set is empty"
    for number, line in enumerate(lines, start=1):
        assert line.strip(), f"line {number} is blank"
        obj = json.loads(line)
        assert isinstance(obj, dict), f"line {number} is not an object"


def test_at_least_240_cases(cases: list[dict]) -> None:
    assert len(cases) >= 240


def test_ids_unique_and_well_formed(cases: list[dict]) -> None:
    ids = [c["id"] for c in cases]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, dupes
    bad = [i for i in ids if not ID_PATTERN.match(i)]
    assert not bad, bad


def check_scope(where: str, scope: dict) -> None:
    assert isinstance(scope, dict), where
    assert scope.get("level") in LEVELS, f"{where}: level {scope.get('level')!r}"
    field = LEVEL_FIELD.get(scope["level"])
    if field:
        assert isinstance(scope.get(field), str) and scope[field], f"{where}: {scope['level']} needs {field}"


def test_required_keys_and_enums(cases: list[dict]) -> None:
    for case in cases:
        cid = case["id"]
        assert set(case) <= CASE_KEYS, f"{cid}: unknown keys {set(case) - CASE_KEYS}"
        assert {"id", "actor", "candidate", "expected"} <= set(case), cid

        actor = case["actor"]
        assert set(actor) <= ACTOR_KEYS, f"{cid}: actor keys"
        assert actor["role"] in ROLES, f"{cid}: role {actor['role']!r}"
        for flag in ("memory_paused", "session_opt_out"):
            assert isinstance(actor.get(flag, False), bool), f"{cid}: {flag}"
        if "owned_teams" in actor:
            assert isinstance(actor["owned_teams"], list), cid
            assert all(isinstance(t, str) and t for t in actor["owned_teams"]), cid

        cand = case["candidate"]
        assert set(cand) == CANDIDATE_KEYS, f"{cid}: candidate keys {set(cand) ^ CANDIDATE_KEYS}"
        assert cand["type"] is None or cand["type"] in TYPES, f"{cid}: type {cand['type']!r}"
        assert isinstance(cand["content"], str) and cand["content"].strip(), f"{cid}: content"
        assert len(cand["content"]) <= 2000, f"{cid}: content over the default size limit"
        check_scope(cid, cand["scope"])
        assert cand["source"]["source_type"] in SOURCES, f"{cid}: source {cand['source']}"
        assert isinstance(cand["source"].get("source_message_id"), str), f"{cid}: source_message_id"
        conf = cand["confidence"]
        assert isinstance(conf, int | float) and not isinstance(conf, bool), cid
        assert 0 <= conf <= 1, f"{cid}: confidence {conf}"

        for row in case.get("existing", []):
            assert row["type"] in TYPES, f"{cid}: existing type"
            assert isinstance(row["content"], str) and row["content"].strip(), f"{cid}: existing content"
            check_scope(f"{cid} existing", row["scope"])
            assert row["source"]["source_type"] in SOURCES, f"{cid}: existing source"

        exp = case["expected"]
        assert set(exp) <= EXPECTED_KEYS, f"{cid}: expected keys {set(exp) - EXPECTED_KEYS}"
        assert exp["decision"] in DECISIONS, f"{cid}: decision"
        if "reason_code" in exp:
            assert exp["reason_code"] in REASON_RULE, f"{cid}: reason_code {exp['reason_code']!r}"
        if "type" in exp:
            assert exp["type"] in TYPES, f"{cid}: expected type"
        if "sensitivity" in exp:
            assert exp["sensitivity"] in SENSITIVITIES, f"{cid}: sensitivity"
        if "confirm_by" in exp:
            assert exp["confirm_by"] in CONFIRM_BY, f"{cid}: confirm_by"
        if "deduplicated" in exp:
            assert isinstance(exp["deduplicated"], bool), f"{cid}: deduplicated"


def test_labels_are_consistent(cases: list[dict]) -> None:
    for case in cases:
        cid, exp, actor = case["id"], case["expected"], case["actor"]
        decision = exp["decision"]
        if "reason_code" in exp:
            assert decision == "reject", f"{cid}: a reason code belongs to a reject"
        if decision == "ask_confirmation":
            assert "confirm_by" in exp, f"{cid}: ask_confirmation says who confirms"
        else:
            assert "confirm_by" not in exp, f"{cid}: confirm_by only with ask_confirmation"
        if exp.get("confirm_by") == "admin":
            assert actor["role"] in {"tenant_admin", "team_owner"}, f"{cid}: only admins/owners propose rules"
        if exp.get("deduplicated") is True:
            assert decision == "save" and case.get("existing"), f"{cid}: a duplicate is a save of an existing"
        if exp.get("reason_code") == "restricted_data":
            assert exp.get("sensitivity") == "restricted", cid
        if exp.get("reason_code") == "too_sensitive_for_long_term":
            assert exp.get("sensitivity") == "high", cid
            assert case["candidate"]["scope"]["level"] not in SHORT_LEVELS, cid
        if exp.get("sensitivity") == "restricted":
            assert decision == "reject", f"{cid}: restricted data is never saved"
        if exp.get("reason_code") == "user_paused":
            assert actor.get("memory_paused") is True, cid
        if exp.get("reason_code") == "session_opt_out":
            assert actor.get("session_opt_out") is True, cid
        if exp.get("reason_code") == "low_confidence":
            assert case["candidate"]["source"]["source_type"] == "agent_inference", cid
            assert case["candidate"]["confidence"] < 0.5, cid
        if actor["role"] == "team_owner":
            assert actor.get("owned_teams"), f"{cid}: a team owner lists owned_teams"


def test_chinese_and_english_balanced(cases: list[dict]) -> None:
    zh = sum(1 for c in cases if CJK.search(c["candidate"]["content"]))
    share = zh / len(cases)
    assert 0.40 <= share <= 0.60, f"zh share {share:.2f}"


def test_every_rule_from_2_to_12_is_represented(cases: list[dict]) -> None:
    seen: Counter = Counter()
    for case in cases:
        seen.update(rules_of(case))
    missing = [rule for rule in range(2, 13) if not seen[rule]]
    assert not missing, f"rules without a case: {missing}"


def test_every_sensitivity_level_is_expected(cases: list[dict]) -> None:
    levels = {c["expected"]["sensitivity"] for c in cases if "sensitivity" in c["expected"]}
    assert levels == SENSITIVITIES


def test_every_decision_reason_type_source_role_and_level_appears(cases: list[dict]) -> None:
    assert {c["expected"]["decision"] for c in cases} == DECISIONS
    assert {c["expected"]["reason_code"] for c in cases if "reason_code" in c["expected"]} == set(REASON_RULE)
    assert {c["expected"]["confirm_by"] for c in cases if "confirm_by" in c["expected"]} == CONFIRM_BY
    assert {c["candidate"]["type"] for c in cases} - {None} == TYPES
    assert {c["candidate"]["source"]["source_type"] for c in cases} == SOURCES
    assert {c["actor"]["role"] for c in cases} == ROLES
    assert {c["candidate"]["scope"]["level"] for c in cases} == LEVELS
    assert any(c["candidate"]["type"] is None for c in cases), "some candidates are left to the classifier"


def test_resident_ids_in_restricted_cases_have_valid_check_digits(cases: list[dict]) -> None:
    found = 0
    for case in cases:
        for value in RESIDENT_ID.findall(case["candidate"]["content"]):
            assert case["expected"].get("reason_code") == "restricted_data", f"{case['id']}: id-like number"
            assert resident_id_ok(value), f"{case['id']}: {value} has a wrong check digit"
            found += 1
    assert found >= 4


def test_card_numbers_pass_luhn_and_saved_texts_hold_none(cases: list[dict]) -> None:
    cards = 0
    for case in cases:
        content = case["candidate"]["content"]
        for match in CARD_LIKE.findall(content):
            digits = re.sub(r"\D", "", match)
            if RESIDENT_ID.fullmatch(digits):
                continue
            if case["id"].startswith("r3-card"):
                assert luhn_ok(digits), f"{case['id']}: {match} fails Luhn"
                cards += 1
            elif case["expected"]["decision"] != "reject":
                assert not luhn_ok(digits), f"{case['id']}: a saved text holds a Luhn-valid number {match}"
    assert cards >= 4


@pytest.mark.parametrize(
    "command",
    [
        ["-m", "fixtures.tools.policy_eval", "--check"],
        ["-m", "fixtures.tools.gate", "--check"],
        ["-m", "fixtures.tools.extraction", "--check"],
        ["fixtures/tools/read_eval/build.py", "--check"],
    ],
    ids=["policy_eval", "gate", "extraction", "read_eval_large"],
)
def test_each_generated_set_is_what_its_generator_builds(command):
    """Nobody edits a generated set by hand: rebuilding it from its generator gives the committed bytes."""
    import subprocess
    import sys

    root = FIXTURE.parents[1]
    result = subprocess.run([sys.executable, *command], cwd=root, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
