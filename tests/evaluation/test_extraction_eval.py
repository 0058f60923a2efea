"""The extraction evaluation set as a CI gate: no restricted value reaches anything derived, nothing the
set forbids is proposed, and precision/recall stay at what the deterministic extractor reaches."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from memories.models import Memory

FIXTURE = Path(settings.BASE_DIR) / "fixtures" / "extraction_eval.jsonl"


def _run(path: Path, *args: str) -> dict:
    out = StringIO()
    call_command("evaluate_extraction", str(path), "--json", *args, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


@pytest.mark.django_db(transaction=True)
def test_the_fixture_passes_the_gates():
    metrics = _run(FIXTURE, "--check")
    assert metrics["conversations"] == 204
    assert metrics["restricted_leaks"] == 0
    assert metrics["must_not_yield_violations"] == 0
    dev, holdout = metrics["by_split"]["dev"], metrics["by_split"]["holdout"]
    print(json.dumps({"dev": dev, "holdout": holdout}))
    # Gates a little under the measured figures (docs/extraction.md): a regression fails, noise doesn't.
    assert dev["precision"] >= 0.85 and dev["recall"] >= 0.80
    assert holdout["precision"] >= 0.6 and holdout["recall"] >= 0.45
    assert not Memory.objects.exists()  # rolled back


@pytest.mark.django_db(transaction=True)
def test_a_leak_is_counted(tmp_path, monkeypatch):
    """The leak gate is honest: an extractor that skipped redaction is caught on the secret conversations."""
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    secrets = [row for row in rows if row["class"] == "secret_in_useful_turn"][:4]
    subset = tmp_path / "secrets.jsonl"
    subset.write_text("\n".join(json.dumps(row, ensure_ascii=False) for row in secrets))
    monkeypatch.setattr("conversations.extraction.sanitize.redact", lambda text: (text, 0))

    def leaky(view):  # copies each user turn verbatim: the secrets with it
        from conversations.extraction.rules import Extraction, Proposal
        from governance.vocabulary import Level, MemoryType, SourceType

        out = Extraction()
        for turn in view.turns:
            if turn.kind == "user_message":
                out.proposals.append(
                    Proposal(
                        "leak",
                        turn.text,
                        MemoryType.USER_PREFERENCE,
                        SourceType.USER_STATEMENT,
                        Level.USER,
                        (turn.event_id,),
                    )
                )
        return out

    monkeypatch.setattr("conversations.extraction.run.current_extractor", lambda **_: leaky)
    metrics = _run(subset)
    assert metrics["restricted_leaks"] > 0
    with pytest.raises(CommandError):
        call_command("evaluate_extraction", str(subset), "--check", stdout=StringIO())


@pytest.mark.django_db
def test_bad_files_are_clear_errors(tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        call_command("evaluate_extraction", str(tmp_path / "missing.jsonl"))
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    with pytest.raises(CommandError, match="line 1"):
        call_command("evaluate_extraction", str(broken))
