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
