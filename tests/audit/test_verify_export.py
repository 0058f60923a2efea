"""``verify_audit_export`` checks an export offline and names the first line that was tampered with."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.management import CommandError, call_command

from audit.chain import event_hash
from audit.events import Event
from audit.export_verify import export_file_verify
from audit.models import AuditEvent
from audit.services import audit_record
from audit.signing import manifest_sign, public_key_text
from tests.audit.conftest import tampering


@pytest.fixture
def chain(world):
    """Eight more events in demo's chain, so that every test has lines to tamper with."""
    for i in range(8):
        audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="agent:test", details={"i": i})
    return world


def _write(tmp_path: Path, body: bytes | str, name: str = "export.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(body if isinstance(body, bytes) else body.encode())
    return path


def _lines(body: bytes, fmt: str) -> list[str]:
    return body.decode().split("\r\n" if fmt == "csv" else "\n")[:-1]


def _join(lines: list[str], fmt: str) -> str:
    newline = "\r\n" if fmt == "csv" else "\n"
    return newline.join(lines) + newline


def _verify(path: Path, capsys) -> tuple[int, str]:
    try:
        call_command("verify_audit_export", str(path))
    except SystemExit as exit_info:
        return int(exit_info.code), capsys.readouterr().out
    return 0, capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_clean_export_verifies(chain, run_export, tmp_path, capsys, fmt):
    path = _write(tmp_path, run_export(chain.demo, fmt=fmt), f"export.{fmt}")
    code, out = _verify(path, capsys)
    assert code == 0, out
    events = AuditEvent.objects.filter(tenant=chain.demo).count() - 1  # all but the export's own event
    assert out.startswith(f"OK: {events} events") and "tenant demo" in out


# Line numbers are 1-based lines of the file; in CSV line 1 is the header, so events start at line 2.
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_edited_line_is_named(chain, run_export, tmp_path, capsys, fmt):
    lines = _lines(run_export(chain.demo, fmt=fmt), fmt)
    assert "agent:test" in lines[-4]  # one of the chain fixture's events
    lines[-4] = lines[-4].replace("agent:test", "agent:mallory", 1)
    code, out = _verify(_write(tmp_path, _join(lines, fmt), f"x.{fmt}"), capsys)
    assert code == 1
    assert f"FAILED at line {len(lines) - 3}: its content does not match its hash" in out


def test_an_edited_line_with_a_recomputed_hash_breaks_the_next_link(chain, run_export, tmp_path, capsys):
    lines = _lines(run_export(chain.demo), "jsonl")
    record = json.loads(lines[4])
    record["actor"] = "agent:mallory"
    record["hash"] = event_hash(record)
    lines[4] = json.dumps(record)
    code, out = _verify(_write(tmp_path, _join(lines, "jsonl")), capsys)
    assert code == 1 and "FAILED at line 6: its prev_hash does not match" in out


@pytest.mark.parametrize(("fmt", "offset"), [("jsonl", 0), ("csv", 1)])
def test_a_deleted_line_is_named(chain, run_export, tmp_path, capsys, fmt, offset):
    lines = _lines(run_export(chain.demo, fmt=fmt), fmt)
    del lines[4 + offset]
    code, out = _verify(_write(tmp_path, _join(lines, fmt), f"x.{fmt}"), capsys)
    assert code == 1 and f"FAILED at line {5 + offset}: expected event #" in out


def test_swapped_lines_are_named(chain, run_export, tmp_path, capsys):
    lines = _lines(run_export(chain.demo), "jsonl")
    lines[3], lines[4] = lines[4], lines[3]
    code, out = _verify(_write(tmp_path, _join(lines, "jsonl")), capsys)
    assert code == 1 and "FAILED at line 4: expected event #" in out


def test_a_deleted_last_event_is_caught_by_the_manifest(chain, run_export, tmp_path, capsys):
    lines = _lines(run_export(chain.demo), "jsonl")
    del lines[-2]
    code, out = _verify(_write(tmp_path, _join(lines, "jsonl")), capsys)
    assert code == 1 and f"FAILED at line {len(lines)}: the manifest's count" in out


def test_a_missing_manifest_fails(chain, run_export, tmp_path, capsys):
    lines = _lines(run_export(chain.demo), "jsonl")
    code, out = _verify(_write(tmp_path, _join(lines[:-1], "jsonl")), capsys)
    assert code == 1 and f"FAILED at line {len(lines)}: no manifest line" in out


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_forged_manifest_is_named(chain, run_export, tmp_path, capsys, fmt):
    lines = _lines(run_export(chain.demo, fmt=fmt), fmt)
    lines[-1] = lines[-1].replace('"count":', '"count":1', 1)
    code, out = _verify(_write(tmp_path, _join(lines, fmt), f"x.{fmt}"), capsys)
    assert code == 1
    assert f"FAILED at line {len(lines)}: the manifest's signature does not verify" in out


def test_a_manifest_re_signed_with_another_key_fails(chain, run_export, tmp_path, capsys):
    lines = _lines(run_export(chain.demo), "jsonl")
    del lines[3:5]  # drop two events, renumbering nothing: the attacker re-signs a matching manifest...
    manifest = json.loads(lines[-1])["manifest"]
    forged = manifest_sign({**manifest, "count": manifest["count"] - 2}, key=Ed25519PrivateKey.generate())
    lines[-1] = json.dumps({"manifest": forged})
    code, out = _verify(_write(tmp_path, _join(lines, "jsonl")), capsys)
    assert code == 1 and "FAILED at line 4: expected event #" in out  # ...but the gap is found first
    lines_only_manifest = _lines(run_export(chain.demo), "jsonl")
    resigned = manifest_sign(json.loads(lines_only_manifest[-1])["manifest"], key=Ed25519PrivateKey.generate())
    lines_only_manifest[-1] = json.dumps({"manifest": resigned})
    code, out = _verify(_write(tmp_path, _join(lines_only_manifest, "jsonl"), "y.jsonl"), capsys)
    assert code == 1 and "signed by key" in out and "wrong key, or a forged manifest" in out


@pytest.mark.django_db(transaction=True)
def test_an_export_of_a_chain_tampered_in_the_database_fails(chain, run_export, tmp_path, capsys):
    target = AuditEvent.objects.filter(tenant=chain.demo).order_by("seq")[5]
    with tampering():
        AuditEvent.objects.filter(pk=target.pk).update(actor="agent:mallory")
    code, out = _verify(_write(tmp_path, run_export(chain.demo)), capsys)
    assert code == 1 and "FAILED at line 6: its content does not match its hash" in out


@pytest.mark.django_db(transaction=True)
def test_an_export_of_a_chain_with_a_row_deleted_in_the_database_fails(chain, run_export, tmp_path, capsys):
    target = AuditEvent.objects.filter(tenant=chain.demo).order_by("seq")[5]
    with tampering():
        AuditEvent.objects.filter(pk=target.pk).delete()
    code, out = _verify(_write(tmp_path, run_export(chain.demo, fmt="csv"), "x.csv"), capsys)
    assert code == 1 and "FAILED at line 7: expected event #6, found #7" in out


def test_it_verifies_with_the_public_key_alone(chain, run_export, tmp_path, public_key):
    path = _write(tmp_path, run_export(chain.demo))
    assert export_file_verify(path, public_key=public_key).ok
    other = Ed25519PrivateKey.generate().public_key()
    check = export_file_verify(path, public_key=other)
    assert not check.ok and "signed by key" in check.problem
    call_command("verify_audit_export", str(path), public_key=public_key_text(public_key))


def test_a_missing_file_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        call_command("verify_audit_export", str(tmp_path / "nope.jsonl"))


def test_it_runs_offline_without_any_database(chain, run_export, tmp_path):
    """A fresh process whose database is unreachable: verification must not need it."""
    path = _write(tmp_path, run_export(chain.demo, fmt="csv"), "x.csv")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": "postgres://nobody:nothing@127.0.0.1:9/nowhere",
        "MEMGOV_DEBUG": "0",
        "MEMGOV_AUDIT_SIGNING_KEY": settings.MEMGOV_AUDIT_SIGNING_KEY,
    }
    manage = Path(settings.BASE_DIR) / "manage.py"
    done = subprocess.run(
        [sys.executable, str(manage), "verify_audit_export", str(path)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: ")
    path.write_text(path.read_text().replace("agent:test", "agent:mallory", 1))
    done = subprocess.run(
        [sys.executable, str(manage), "verify_audit_export", str(path)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 1 and "FAILED at line" in done.stdout
