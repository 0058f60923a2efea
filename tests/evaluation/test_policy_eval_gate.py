"""The CI gate on the project's policy evaluation set (DESIGN.md, issue 3)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from audit.models import AuditEvent
from memories.models import Memory

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "policy_eval.jsonl"


@pytest.mark.django_db
def test_the_policy_evaluation_passes_its_gate_and_leaves_nothing_behind():
    out = StringIO()
    call_command("evaluate_policy", str(FIXTURE), "--json", stdout=out)
    metrics = json.loads(out.getvalue().strip().splitlines()[-1])
    print({k: v for k, v in metrics.items() if k != "mismatches"})  # shown in CI output on failure
    assert metrics["cases"] >= 200
    assert metrics["decision_accuracy"] >= 0.95, metrics["mismatches"][:10]
    assert metrics["restricted_saved"] == 0
    assert metrics["sensitive_memory_rate"] == 0.0
    assert metrics["poisoning_acceptance_rate"] == 0.0
    # Each case ran in a throwaway tenant that was rolled back.
    assert not Memory.objects.exists() and not AuditEvent.objects.exists()


@pytest.mark.django_db
def test_a_broken_evaluation_file_is_a_clear_error(tmp_path):
    from django.core.management import CommandError

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "candidate": {}}\n')
    with pytest.raises(CommandError, match="line 1: missing 'expected'"):
        call_command("evaluate_policy", str(bad))


def _gate_cases(path: Path, name: str, count: int) -> list[dict]:
    lines = (path / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[:count]]


@pytest.mark.django_db
def test_several_sets_are_reported_together_per_set_and_split(tmp_path):
    gate = FIXTURE.parent / "gate"
    for name in ("attacks", "fresh2"):
        picked = _gate_cases(gate, name, 3) if name == "attacks" else _gate_cases(gate, name, 200)[-3:]
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in picked))
    out = StringIO()
    call_command(
        "evaluate_policy", str(tmp_path / "attacks.jsonl"), str(tmp_path / "fresh2.jsonl"), "--json", stdout=out
    )
    metrics = json.loads(out.getvalue().strip().splitlines()[-1])

    assert metrics["cases"] == 6
    splits = {(name, split) for name, by_split in metrics["per_set"].items() for split in by_split if split != "all"}
    assert {split for _, split in splits} >= {"fresh2"}
    assert sum(by_split["all"]["cases"] for by_split in metrics["per_set"].values()) == 6


@pytest.mark.django_db
def test_a_missing_second_file_is_named(tmp_path):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match=r"nope\.jsonl: no such file"):
        call_command("evaluate_policy", str(FIXTURE), str(tmp_path / "nope.jsonl"))
