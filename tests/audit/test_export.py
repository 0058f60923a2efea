"""The audit export: what it contains, the range it covers, its manifest, the API around it, its memory."""

from __future__ import annotations

import csv
import io
import json
import stat
import tracemalloc
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from audit.chain import event_hash
from audit.events import Event
from audit.export import (
    CSV_MANIFEST_PREFIX,
    EXPORT_COLUMNS,
    ExportFormat,
    ExportInputError,
    audit_export_start,
    audit_export_stream,
    export_params_parse,
)
from audit.models import AuditEvent
from audit.services import audit_record
from audit.signing import manifest_signature_ok, signing_key_load
from audit.verify import verify_chain
from evaluation.audit_bench import audit_bench_seed
from governance.models import AgentClient
from governance.services.tenancy import tenant_create

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def _event_at(tenant, when: datetime, **details) -> AuditEvent:
    with time_machine.travel(when, tick=False):
        return audit_record(tenant_id=tenant.pk, event=Event.MEMORY_READ, actor="agent:test", details=details)


def test_it_exports_every_event_of_the_tenant_in_chain_order(world, run_export, jsonl_split, public_key):
    stored = list(AuditEvent.objects.filter(tenant=world.demo).order_by("seq"))
    events, manifest = jsonl_split(run_export(world.demo))
    assert [e["seq"] for e in events] == [row.seq for row in stored]
    assert all(tuple(e) == EXPORT_COLUMNS for e in events)
    assert all(event_hash(e) == e["hash"] for e in events)
    assert manifest["tenant"] == "demo" and manifest["count"] == len(stored)
    assert manifest["first_hash"] == stored[0].hash and manifest["last_hash"] == stored[-1].hash
    assert manifest_signature_ok(manifest, public_key=public_key)


def test_it_never_holds_memory_content(world, run_export, make_memory):
    make_memory(world.demo, "Alice's secret garden is behind the shed", user_id="alice")
    assert b"secret garden" not in run_export(world.demo)
    assert b"secret garden" not in run_export(world.demo, fmt="csv")


def test_it_exports_only_the_tenants_own_events(world, run_export, jsonl_split):
    events, manifest = jsonl_split(run_export(world.acme))
    assert {e["tenant_id"] for e in events} == {world.acme.pk}
    assert manifest["tenant"] == "acme"


def test_the_export_is_itself_recorded_and_is_the_manifests_chain_head(world, run_export, jsonl_split):
    events, manifest = jsonl_split(run_export(world.demo, actor="user:dave"))
    recorded = AuditEvent.objects.get(tenant=world.demo, event=Event.AUDIT_EXPORTED)
    assert recorded.actor == "user:dave"
    assert recorded.seq == events[-1]["seq"] + 1  # after the exported range, not inside it
    assert manifest["chain_head"] == {"seq": recorded.seq, "hash": recorded.hash}
    assert recorded.details["first_seq"] == events[0]["seq"] and recorded.details["format"] == "jsonl"
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_csv_has_the_same_columns_and_a_trailing_manifest_comment(world, run_export, jsonl_split):
    stored = list(AuditEvent.objects.filter(tenant=world.demo).order_by("seq"))
    body = run_export(world.demo, fmt="csv").decode()
    *data, manifest_line = body.splitlines()
    rows = list(csv.reader(io.StringIO("\n".join(data))))
    assert tuple(rows[0]) == EXPORT_COLUMNS
    assert [int(row[1]) for row in rows[1:]] == [row.seq for row in stored]
    assert [row[-1] for row in rows[1:]] == [row.hash for row in stored]
    assert manifest_line.startswith(CSV_MANIFEST_PREFIX)
    assert json.loads(manifest_line[len(CSV_MANIFEST_PREFIX) :])["count"] == len(stored)


def test_the_time_range_is_half_open(world, run_export, jsonl_split):
    for hour in range(4):
        _event_at(world.demo, T0 + timedelta(hours=hour), hour=hour)
    events, manifest = jsonl_split(run_export(world.demo, start=T0 + timedelta(hours=1), end=T0 + timedelta(hours=3)))
    assert [e["details"]["hour"] for e in events] == [1, 2]
    assert manifest["from"] == "2025-03-01T10:00:00.000000Z" and manifest["to"] == "2025-03-01T12:00:00.000000Z"


def test_events_stamped_out_of_order_are_exported_as_one_contiguous_run(world, run_export, jsonl_split, public_key):
    # created_at is stamped before the chain lock is taken, so concurrent appends can be out of time order.
    first = _event_at(world.demo, T0 + timedelta(microseconds=2), n=1)
    _event_at(world.demo, T0 + timedelta(microseconds=1), n=2)
    _event_at(world.demo, T0 + timedelta(microseconds=3), n=3)
    events, _ = jsonl_split(run_export(world.demo, start=first.created_at, end=T0 + timedelta(seconds=1)))
    assert [e["details"]["n"] for e in events] == [1, 2, 3]


def test_an_empty_range_exports_a_signed_manifest_only(world, run_export, jsonl_split, public_key):
    events, manifest = jsonl_split(run_export(world.demo, start=T0, end=T0 + timedelta(hours=1)))
    assert events == [] and manifest["count"] == 0 and manifest["first_hash"] is None
    assert manifest_signature_ok(manifest, public_key=public_key)


@pytest.mark.parametrize(
    ("fmt", "start", "end", "field"),
    [
        ("xml", "", "", "format"),
        ("jsonl", "yesterday", "", "from"),
        ("jsonl", "", "2025-13-45", "to"),
        ("csv", "2025-03-02", "2025-03-01", "to"),
    ],
)
def test_bad_parameters_name_the_field(fmt, start, end, field):
    with pytest.raises(ExportInputError) as error:
        export_params_parse(fmt=fmt, start=start, end=end)
    assert error.value.field == field


def test_a_bare_date_means_the_whole_day():
    fmt, start, end = export_params_parse(fmt="CSV", start="2025-03-01", end="2025-03-01")
    assert fmt is ExportFormat.CSV
    assert start == datetime(2025, 3, 1, tzinfo=UTC) and end == datetime(2025, 3, 2, tzinfo=UTC)
    _, start, _ = export_params_parse(fmt=None, start="2025-03-01T09:00:00+08:00", end=None)
    assert start == datetime(2025, 3, 1, 1, tzinfo=UTC)


# --- The API ---------------------------------------------------------------------------------


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


def test_the_api_streams_jsonl_to_the_compliance_officer(world, jsonl_split):
    response = world.user_client(world.dave).get("/api/v1/audit/export", {"format": "jsonl", "from": "2000-01-01"})
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"].startswith("application/x-ndjson")
    assert 'filename="memgov-audit-demo-' in response["Content-Disposition"]
    events, manifest = jsonl_split(_body(response))
    assert manifest["tenant"] == "demo" and manifest["count"] == len(events) > 0


def test_the_api_streams_csv(world):
    response = world.user_client(world.dave).get("/api/v1/audit/export", {"format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert _body(response).decode().splitlines()[-1].startswith(CSV_MANIFEST_PREFIX)


@pytest.mark.parametrize(
    ("params", "field"),
    [({"format": "xml"}, "format"), ({"from": "soon"}, "from"), ({"from": "2025-03-02", "to": "2025-03-01"}, "to")],
)
def test_the_api_rejects_bad_parameters_with_400_naming_the_field(world, params, field):
    response = world.user_client(world.dave).get("/api/v1/audit/export", params)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request" and field in response.json()["fields"]
    assert not AuditEvent.objects.filter(event=Event.AUDIT_EXPORTED).exists()


@pytest.mark.parametrize("who", ["alice", "bob", "carol", "erin"])
def test_people_who_are_not_compliance_officers_get_404(world, who):
    response = world.user_client(getattr(world, who)).get("/api/v1/audit/export")
    assert response.status_code == 404
    assert not AuditEvent.objects.filter(event=Event.AUDIT_EXPORTED).exists()


def test_an_agent_key_needs_the_export_right(world, jsonl_split):
    assert world.agent_client(world.demo_key).get("/api/v1/audit/export").status_code == 404
    AgentClient.objects.filter(pk=world.demo_agent.pk).update(can_export_audit=True)
    response = world.agent_client(world.demo_key).get("/api/v1/audit/export")
    assert response.status_code == 200
    _, manifest = jsonl_split(_body(response))
    assert manifest["tenant"] == "demo" and manifest["generated_by"] == "agent:demo-agent"


def test_another_tenants_agent_with_the_right_sees_only_its_own_tenant(world, jsonl_split):
    AgentClient.objects.filter(pk=world.acme_agent.pk).update(can_export_audit=True)
    events, manifest = jsonl_split(_body(world.agent_client(world.acme_key).get("/api/v1/audit/export")))
    assert manifest["tenant"] == "acme" and {e["tenant_id"] for e in events} == {world.acme.pk}


def test_anonymous_callers_are_refused(world, client):
    assert client.get("/api/v1/audit/export").status_code in (401, 403)


# --- The signing key -------------------------------------------------------------------------


def test_without_a_signing_key_in_production_the_export_is_refused(world, settings):
    settings.MEMGOV_AUDIT_SIGNING_KEY = ""
    settings.DEBUG = False
    response = world.user_client(world.dave).get("/api/v1/audit/export")
    assert response.status_code == 503
    assert "MEMGOV_AUDIT_SIGNING_KEY" in response.json()["detail"]
    assert not AuditEvent.objects.filter(event=Event.AUDIT_EXPORTED).exists()


def test_in_development_a_key_file_is_created_once_and_reused(world, settings, tmp_path, run_export, jsonl_split):
    settings.MEMGOV_AUDIT_SIGNING_KEY = ""
    settings.DEBUG = True
    settings.VAR_DIR = tmp_path
    _, first = jsonl_split(run_export(world.demo))
    key_file = tmp_path / "audit-signing.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    _, second = jsonl_split(run_export(world.demo))
    assert first["key_id"] == second["key_id"]
    assert manifest_signature_ok(second, public_key=signing_key_load(create=False).public_key())


# --- Memory --------------------------------------------------------------------------------


def _export_peak_bytes(tenant, events: int) -> int:
    audit_bench_seed(tenant_id=tenant.pk, count=events)
    export = audit_export_start(tenant=tenant, fmt=ExportFormat.JSONL, start=None, end=None, actor="test")
    stream = audit_export_stream(export)
    tracemalloc.start()
    try:
        written = sum(len(chunk) for chunk in stream)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert written > events * 300  # the whole export really went through
    return peak


def test_export_memory_stays_flat_as_the_log_grows(db):
    small = _export_peak_bytes(tenant_create(slug="bench-small", actor="test"), 5_000)
    large = _export_peak_bytes(tenant_create(slug="bench-large", actor="test"), 20_000)
    assert large < 4 * 1024 * 1024, f"export peak {large} bytes"
    assert large < small * 1.25 + 256 * 1024, f"peak grew from {small} to {large} bytes with 4x the events"
