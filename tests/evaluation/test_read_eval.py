"""The read-path evaluation set: the CI gate (no stale memory, no cross-tenant leak) and its bookkeeping."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from memories.models import Memory

FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "read_eval.jsonl"


def _run(*args: str) -> dict:
    out = StringIO()
    call_command("evaluate_read", *args, "--json", stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


@pytest.mark.django_db(transaction=True)
def test_the_fixture_passes_the_ci_gates():
    metrics = _run(str(FIXTURE))
    assert metrics["scenarios"] >= 20
    assert metrics["stale_memory_rate"] == 0
    assert metrics["cross_tenant_leak_rate"] == 0
    assert metrics["cross_subject_leak_rate"] == 0
    assert metrics["forbidden_rate"] == 0
    assert metrics["cross_scope_accuracy"] == 1.0
    assert metrics["conflict_accuracy"] == 1.0
    print(json.dumps({k: v for k, v in metrics.items() if k != "mismatches"}))
    print(json.dumps(metrics["mismatches"], ensure_ascii=False, indent=1))
    assert metrics["recall_at_k"] >= 0.9
    assert metrics["precision_at_k"] >= 0.6


@pytest.mark.django_db(transaction=True)
def test_the_evaluation_leaves_nothing_behind():
    _run(str(FIXTURE))
    assert not Memory.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_leak_is_counted(tmp_path, monkeypatch):
    """The gate is honest: a read path that returned another tenant's memory would be caught."""
    from evaluation import read_eval as evaluation
    from memories.read import scope

    real = scope.memory_context_candidates

    def leaky(*, grant, now, limit=scope.CANDIDATE_LIMIT, model=""):
        other = scope.ReadGrant(tenant_id=grant.tenant_id + 1, user_id=grant.user_id)
        return real(grant=grant, now=now, limit=limit, model=model) + real(
            grant=other, now=now, limit=limit, model=model
        )

    monkeypatch.setattr("memories.read.context.memory_context_candidates", leaky)
    path = tmp_path / "leak.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(line)
            for line in [
                {"kind": "world", "tenants": {"demo": {"members": ["alice"]}, "acme": {"members": ["alice"]}}},
                {"kind": "memory", "ref": "mine", "tenant": "demo", "content": "Prefers tables", "user_id": "alice"},
                {"kind": "memory", "ref": "theirs", "tenant": "acme", "content": "Prefers tables", "user_id": "alice"},
                {"kind": "scenario", "id": "s", "tenant": "demo", "scope": {"user_id": "alice"}, "query": "tables"},
            ]
        )
    )
    metrics = _run(str(path))
    assert metrics["cross_tenant_leak_rate"] == 0.5
    with pytest.raises(CommandError, match="cross_tenant_leak_rate"):
        call_command("evaluate_read", str(path), "--check", stdout=StringIO())
    assert evaluation  # the module under test


@pytest.mark.django_db(transaction=True)
def test_a_stale_memory_is_counted(tmp_path, monkeypatch):
    from memories.read import scope

    def everything(*, grant, now, limit=scope.CANDIDATE_LIMIT, model=""):
        return scope.memory_context_candidates(grant=grant, now=now.replace(year=2000), limit=limit, model=model)

    monkeypatch.setattr("memories.read.context.memory_context_candidates", everything)
    path = tmp_path / "stale.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(line)
            for line in [
                {"kind": "world", "tenants": {"demo": {"members": ["alice"]}}},
                {
                    "kind": "memory",
                    "ref": "old",
                    "tenant": "demo",
                    "content": "Prefers tables",
                    "user_id": "alice",
                    "expires_in_hours": -1,
                },
                {"kind": "scenario", "id": "s", "tenant": "demo", "scope": {"user_id": "alice"}, "query": "tables"},
            ]
        )
    )
    assert _run(str(path))["stale_memory_rate"] == 1.0


def test_a_malformed_file_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"kind": "memory", "ref": "x"}\n')
    with pytest.raises(CommandError, match="line 1: a memory needs 'tenant'"):
        call_command("evaluate_read", str(path), stdout=StringIO())
    with pytest.raises(CommandError, match="no such file"):
        call_command("evaluate_read", str(tmp_path / "missing.jsonl"), stdout=StringIO())
