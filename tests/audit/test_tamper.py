"""Someone with write access to the database rewrites or cuts the audit chain the way the hash chain alone
can't see — and the signed checkpoints written outside the database catch each one, naming what is wrong.
Runs on SQLite and PostgreSQL; the attacker acts as the tables' owner (triggers dropped)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.db import connection

from audit.chain import GENESIS, event_hash, row_fields
from audit.checkpoints import CheckpointMismatch, audit_checkpoint_write, checkpoint_sink
from audit.events import Event
from audit.export import ChainDoesNotMatchCheckpoint, ExportFormat, audit_export_start
from audit.models import AuditChainHead, AuditEvent
from audit.services import audit_record
from audit.verify import verify_chain
from tests.audit.conftest import tampering


def _append(tenant, n: int) -> None:
    for i in range(n):
        audit_record(tenant_id=tenant.pk, event=Event.MEMORY_READ, actor="test", details={"i": i})


def _checkpointed(tenant, n: int = 5) -> int:
    _append(tenant, n)
    checkpoint = audit_checkpoint_write(tenant_id=tenant.pk)
    return checkpoint.seq


def _verify_output(tenant, capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_audit", tenant=tenant.slug)
    assert exit_info.value.code == 1
    return capsys.readouterr().out


def _rewrite_from(tenant, seq: int) -> None:
    """Edit event #seq and recompute its hash and every later one, and the head: a consistent forgery."""
    with tampering():
        prev = AuditEvent.objects.get(tenant=tenant, seq=seq - 1).hash if seq > 1 else GENESIS
        for row in AuditEvent.objects.filter(tenant=tenant, seq__gte=seq).order_by("seq"):
            if row.seq == seq:
                row.actor = "mallory"
            row.prev_hash = prev
            prev = event_hash(row_fields(row))
            AuditEvent.objects.filter(pk=row.pk).update(actor=row.actor, prev_hash=row.prev_hash, hash=prev)
        AuditChainHead.objects.filter(tenant=tenant).update(head_hash=prev)


@pytest.mark.django_db(transaction=True)
def test_cutting_the_tail_and_moving_the_head_back_is_caught(world, capsys):
    checkpointed = _checkpointed(world.demo)
    with tampering():
        AuditEvent.objects.filter(tenant=world.demo, seq__gt=checkpointed - 2).delete()
        last = AuditEvent.objects.filter(tenant=world.demo).order_by("-seq").first()
        AuditChainHead.objects.filter(tenant=world.demo).update(seq=last.seq, head_hash=last.hash)
    report = verify_chain(tenant_id=world.demo.pk)
    assert not report.ok and report.problem.startswith(f"truncated after #{checkpointed - 2}")
    assert f"truncated after #{checkpointed - 2}" in _verify_output(world.demo, capsys)


@pytest.mark.django_db(transaction=True)
def test_deleting_the_head_row_is_caught(world, capsys):
    _checkpointed(world.demo)
    with tampering():
        AuditChainHead.objects.filter(tenant=world.demo).delete()
    report = verify_chain(tenant_id=world.demo.pk)
    assert not report.ok and report.problem.startswith("head missing")
    assert "head missing" in _verify_output(world.demo, capsys)


@pytest.mark.django_db(transaction=True)
def test_a_rewritten_and_rehashed_chain_is_caught(world, capsys):
    checkpointed = _checkpointed(world.demo)
    _rewrite_from(world.demo, 3)
    report = verify_chain(tenant_id=world.demo.pk)
    assert not report.ok and report.problem.startswith("rewritten")
    assert report.first_bad_seq is not None and report.first_bad_seq <= checkpointed
    assert "rewritten" in _verify_output(world.demo, capsys)


@pytest.mark.django_db(transaction=True)
def test_truncating_both_tables_is_caught(world, capsys):
    checkpointed = _checkpointed(world.demo)
    with tampering(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's own transaction has deferred FK checks
            cursor.execute("TRUNCATE audit_auditevent, audit_auditchainhead")
        else:  # SQLite's TRUNCATE is an unqualified DELETE
            cursor.execute("DELETE FROM audit_auditevent")
            cursor.execute("DELETE FROM audit_auditchainhead")
    report = verify_chain(tenant_id=world.demo.pk)
    assert not report.ok and report.problem.startswith("truncated after #0")
    assert f"#{checkpointed}" in report.problem
    assert "truncated" in _verify_output(world.demo, capsys)


@pytest.mark.django_db(transaction=True)
def test_a_rewritten_chain_cannot_produce_an_export(world):
    _checkpointed(world.demo)
    _rewrite_from(world.demo, 2)
    with pytest.raises(ChainDoesNotMatchCheckpoint):
        audit_export_start(tenant=world.demo, fmt=ExportFormat.JSONL, start=None, end=None, actor="user:dave")


@pytest.mark.django_db(transaction=True)
def test_the_export_api_refuses_a_rewritten_chain_with_json(world):
    _checkpointed(world.demo)
    _rewrite_from(world.demo, 2)
    response = world.user_client(world.dave).get("/api/v1/audit/export")
    assert response.status_code == 409 and response.json()["error"] == "audit_chain_tampered"


@pytest.mark.django_db(transaction=True)
def test_a_new_checkpoint_refuses_to_launder_a_rewrite(world):
    _checkpointed(world.demo)
    _rewrite_from(world.demo, 2)
    with pytest.raises(CheckpointMismatch):
        audit_checkpoint_write(tenant_id=world.demo.pk)


def test_an_untouched_chain_verifies_against_its_checkpoint_and_grows_past_it(world, capsys):
    checkpointed = _checkpointed(world.demo)
    _append(world.demo, 3)
    assert verify_chain(tenant_id=world.demo.pk).ok
    call_command("verify_audit", tenant="demo")
    out = capsys.readouterr().out
    assert "demo: OK" in out and f"checkpoint #{checkpointed}" in out


def test_every_export_writes_a_checkpoint_at_its_chain_head(world):
    _append(world.demo, 2)
    export = audit_export_start(tenant=world.demo, fmt=ExportFormat.JSONL, start=None, end=None, actor="user:dave")
    latest = checkpoint_sink().latest(tenant_id=world.demo.pk)
    assert latest is not None and latest.seq == export.chain_head_seq and latest.hash == export.chain_head_hash


def test_a_forged_checkpoint_file_is_refused(world, settings):
    _checkpointed(world.demo)
    sink = checkpoint_sink()
    path = sink.paths(tenant_id=world.demo.pk)[-1]
    record = json.loads(path.read_text())
    record["seq"] = 1
    path.write_text(json.dumps(record))
    report = verify_chain(tenant_id=world.demo.pk)
    assert not report.ok and "signature" in report.problem


def test_checkpoint_files_are_private(world):
    _checkpointed(world.demo)
    path = checkpoint_sink().paths(tenant_id=world.demo.pk)[-1]
    assert path.stat().st_mode & 0o077 == 0
