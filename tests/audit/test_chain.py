"""The audit log is append-only in the database and its hash chain exposes any tampering."""

from __future__ import annotations

import threading

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connections, transaction

from audit.events import Event
from audit.models import AppendOnlyError, AuditEvent
from audit.services import AuditDetailError, audit_record
from audit.verify import verify_chain
from tests.audit.conftest import tampering


def _append(tenant, n: int) -> list[AuditEvent]:
    return [
        audit_record(tenant_id=tenant.pk, event=Event.MEMORY_READ, actor="test", details={"i": i}) for i in range(n)
    ]


def test_an_untouched_chain_verifies(world, capsys):
    _append(world.demo, 5)
    call_command("verify_audit", tenant="demo")
    assert "demo: OK" in capsys.readouterr().out


def test_the_database_refuses_update(world):
    event = _append(world.demo, 1)[0]
    # The trigger refuses it, or (the PostgreSQL service role) the missing privilege does first.
    with pytest.raises(DatabaseError, match=r"append-only|permission denied"), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).update(actor="mallory")


def test_the_database_refuses_delete(world):
    event = _append(world.demo, 1)[0]
    with pytest.raises(DatabaseError, match=r"append-only|permission denied"), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).delete()


def test_the_model_refuses_save_and_delete(world):
    event = _append(world.demo, 1)[0]
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()


def _verify_fails_at(tenant, capsys, seq: int) -> None:
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_audit", tenant=tenant.slug)
    assert exit_info.value.code == 1
    assert f"TAMPERED at event #{seq}" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
def test_verify_names_an_edited_event(world, capsys):
    events = _append(world.demo, 5)
    with tampering():
        AuditEvent.objects.filter(pk=events[2].pk).update(actor="mallory")
    _verify_fails_at(world.demo, capsys, events[2].seq)


@pytest.mark.django_db(transaction=True)
def test_verify_names_a_deleted_event(world, capsys):
    events = _append(world.demo, 5)
    with tampering():
        AuditEvent.objects.filter(pk=events[2].pk).delete()
    _verify_fails_at(world.demo, capsys, events[3].seq)


@pytest.mark.django_db(transaction=True)
def test_verify_names_a_deleted_last_event(world):
    events = _append(world.demo, 3)
    with tampering():
        AuditEvent.objects.filter(pk=events[-1].pk).delete()
    report = verify_chain(tenant_id=world.demo.pk)
    assert not report.ok and "removed at the end" in report.problem


@pytest.mark.django_db(transaction=True)
def test_verify_names_swapped_events(world, capsys):
    events = _append(world.demo, 5)
    a, b = events[1], events[2]
    with tampering():
        # Swap their positions, as an attacker reordering history would.
        AuditEvent.objects.filter(pk=a.pk).update(seq=10_000)
        AuditEvent.objects.filter(pk=b.pk).update(seq=a.seq)
        AuditEvent.objects.filter(pk=a.pk).update(seq=b.seq)
    _verify_fails_at(world.demo, capsys, a.seq)


@pytest.mark.django_db(transaction=True)
def test_chains_are_per_tenant(world):
    _append(world.demo, 3)
    _append(world.acme, 2)
    with tampering():
        AuditEvent.objects.filter(tenant=world.acme, seq=2).update(actor="mallory")
    assert verify_chain(tenant_id=world.demo.pk).ok
    assert not verify_chain(tenant_id=world.acme.pk).ok


def test_details_refuse_free_text(world):
    with pytest.raises(AuditDetailError):
        audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="t", details={"note": "likes dark mode"})
    with pytest.raises(AuditDetailError):
        audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="t", details={"note": "喜欢深色主题"})


@pytest.mark.django_db(transaction=True)
def test_eight_threads_appending_to_one_chain_leave_it_valid(world):
    per_thread = 25
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for i in range(per_thread):
                audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="thread", details={"i": i})
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    before = AuditEvent.objects.filter(tenant=world.demo).count()
    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert AuditEvent.objects.filter(tenant=world.demo).count() == before + 8 * per_thread
    report = verify_chain(tenant_id=world.demo.pk)
    assert report.ok, report.problem
