"""The console shell and the compliance pages: who may open what, and what they see there."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from audit.events import Event
from audit.export_verify import export_file_verify
from audit.models import AuditEvent
from audit.services import audit_record
from audit.signing import key_id, signing_key_load
from governance.services.tenancy import membership_set, user_create
from governance.vocabulary import Role
from memories.services.subjects import subject_erase

PAGES = ["/console/", "/console/audit/", "/console/audit/export", "/console/subjects/"]
COMPLIANCE_GETS = ["/console/audit/", "/console/audit/export", "/console/subjects/", "/console/subjects/?subject=alice"]
COMPLIANCE_POSTS = [("/console/audit/export", {"format": "jsonl"}), ("/console/subjects/export", {"subject": "alice"})]
API = "/api/v1/audit/export"


@pytest.fixture
def acme_staff(world):
    """An admin and a compliance officer of the other tenant: they must see nothing of demo."""
    admin = membership_set(
        tenant=world.acme, user=user_create(username="gina", password="x"), role=Role.TENANT_ADMIN, actor="test"
    )
    officer = membership_set(
        tenant=world.acme, user=user_create(username="frank", password="x"), role=Role.COMPLIANCE_OFFICER, actor="test"
    )
    return admin, officer


def _client(client, membership):
    client.force_login(membership.user)
    return client


def _rows(page: str) -> str:
    """The table body of a results page (not the form's help texts)."""
    return page[page.find("<tbody>") : page.find("</tbody>")]


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


# --- Who may open what ------------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES)
def test_it_requires_login(client, world, path):
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("who", ["alice", "bob", "erin"])
@pytest.mark.parametrize("path", PAGES)
def test_members_get_the_404_of_a_missing_page(client, world, who, path):
    client = _client(client, getattr(world, who))
    missing = client.get("/console/no-such-page/")
    response = client.get(path)
    assert response.status_code == 404
    assert response.content == missing.content


@pytest.mark.parametrize("who", ["alice", "bob", "carol", "erin"])
@pytest.mark.parametrize(("path", "data"), COMPLIANCE_POSTS)
def test_only_compliance_officers_may_post(client, world, who, path, data):
    assert _client(client, getattr(world, who)).post(path, data).status_code == 404
    assert not AuditEvent.objects.filter(event__in=[Event.AUDIT_EXPORTED, Event.SUBJECT_EXPORTED]).exists()


@pytest.mark.parametrize("who", ["alice", "bob", "carol", "erin"])
def test_only_compliance_officers_may_use_the_export_api(world, who):
    assert world.user_client(getattr(world, who)).get(API).status_code == 404


def test_a_tenant_admin_sees_the_console_but_not_the_audit_pages(client, world):
    client = _client(client, world.carol)
    home = client.get("/console/")
    assert home.status_code == 200
    assert b"console-link-audit" not in home.content  # admins are not compliance officers
    for path in COMPLIANCE_GETS:
        assert client.get(path).status_code == 404, path


def test_another_tenants_admin_gets_404_on_audit_pages(client, world, acme_staff):
    client = _client(client, acme_staff[0])
    assert client.get("/console/").status_code == 200
    for path in COMPLIANCE_GETS:
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize("path", [*COMPLIANCE_GETS, "/console/"])
def test_the_compliance_officer_may_open_every_page(client, world, path):
    response = _client(client, world.dave).get(path)
    assert response.status_code == 200
    assert 'data-testid="nav-console"' in response.content.decode()


def test_another_tenants_compliance_officer_sees_only_their_own_tenant(client, world, acme_staff, make_memory):
    memory = make_memory(world.demo, "Alice likes tables", user_id="alice")
    client = _client(client, acme_staff[1])
    rows = _rows(client.get("/console/audit/").content.decode())
    assert "ai-platform" not in rows and "alice" not in rows and "demo-agent" not in rows
    assert "frank" in rows  # their own tenant's events are there
    assert "0 events" in client.get("/console/audit/", {"memory": str(memory.pk)}).content.decode()
    assert client.post("/console/subjects/export", {"subject": "alice"}).status_code == 404
    body = _body(client.post("/console/audit/export", {"format": "jsonl"}))
    manifest = json.loads(body.decode().splitlines()[-1])["manifest"]
    assert manifest["tenant"] == "acme"
    assert b"alice" not in body


def test_only_people_with_the_permission_see_the_console_link(client, world):
    assert 'data-testid="nav-console"' not in _client(client, world.alice).get("/").content.decode()
    assert 'data-testid="nav-console"' in _client(client, world.carol).get("/").content.decode()


# --- Audit search -----------------------------------------------------------------------------


def _search(client, **params) -> tuple[int, list[int]]:
    response = client.get("/console/audit/", params)
    seqs = [int(s) for s in re.findall(r'data-seq="(\d+)"', response.content.decode())]
    return response.status_code, seqs


@pytest.fixture
def officer(client, world):
    return _client(client, world.dave)


@pytest.fixture
def public_key():
    return signing_key_load(create=False).public_key()


def test_search_filters_by_event_actor_memory_and_subject(officer, world, make_memory):
    memory = make_memory(world.demo, "Alice likes tables", user_id="alice")
    read = audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="user:alice", memory_id=memory.pk)
    other = audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="agent:demo-agent", subject_id="bob")
    assert _search(officer, event="memory_read") == (200, [other.seq, read.seq])
    assert _search(officer, event="memory_read", actor="alice") == (200, [read.seq])
    assert _search(officer, event="memory_read", actor="agent:demo-agent") == (200, [other.seq])
    by_memory = _search(officer, memory=str(memory.pk))[1]
    assert read.seq in by_memory and other.seq not in by_memory
    assert _search(officer, event="memory_read", subject="bob") == (200, [other.seq])


def test_search_by_time_range(officer, world):
    t0 = datetime(2025, 3, 1, 9, tzinfo=UTC)
    seqs = []
    for hour in range(3):
        with time_machine.travel(t0 + timedelta(hours=hour), tick=False):
            seqs.append(audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="t").seq)
    assert _search(officer, start="2025-03-01T10:00", end="2025-03-01T11:00") == (200, [seqs[1]])
    assert _search(officer, start="2025-03-01", end="2025-03-01") == (200, seqs[::-1])


@pytest.mark.parametrize(
    "params",
    [{"memory": "not-a-uuid"}, {"start": "soon"}, {"start": "2025-03-02", "end": "2025-03-01"}, {"event": "x"}],
)
def test_bad_search_input_is_a_400_with_the_form_not_a_500(officer, world, params):
    response = officer.get("/console/audit/", params)
    assert response.status_code == 400
    assert 'class="field__error"' in response.content.decode()


def test_search_is_paginated_and_keeps_the_filters(officer, world):
    for i in range(55):
        audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_INJECTED, actor="agent:demo-agent", details={"i": i})
    status, first = _search(officer, event="memory_injected")
    assert status == 200 and len(first) == 50
    page = officer.get("/console/audit/", {"event": "memory_injected"}).content.decode()
    assert "?event=memory_injected&amp;page=2" in page
    assert len(_search(officer, event="memory_injected", page=2)[1]) == 5


def test_search_is_read_only(officer, world):
    assert officer.post("/console/audit/", {"event": "memory_read"}).status_code == 405


def test_search_escapes_what_it_shows(officer, world):
    audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="t", subject_id="<script>alert(1)</script>")
    page = officer.get("/console/audit/").content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)  # CSP: no inline scripts


# --- Export page ------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_export_page_downloads_a_verifiable_file(officer, world, tmp_path, public_key, fmt):
    response = officer.post("/console/audit/export", {"format": fmt, "start": "2000-01-01", "end": ""})
    assert response.status_code == 200 and response.streaming
    path = tmp_path / f"export.{fmt}"
    path.write_bytes(_body(response))
    check = export_file_verify(path, public_key=public_key)
    assert check.ok, check.problem
    assert AuditEvent.objects.get(event=Event.AUDIT_EXPORTED).actor == "user:dave"


def test_the_export_page_shows_the_verification_key(officer, world, public_key):
    page = officer.get("/console/audit/export").content.decode()
    assert key_id(public_key) in page and "verify_audit_export" in page


def test_a_bad_export_form_is_a_400_and_exports_nothing(officer, world):
    response = officer.post("/console/audit/export", {"format": "xml"})
    assert response.status_code == 400
    assert not AuditEvent.objects.filter(event=Event.AUDIT_EXPORTED).exists()


def test_without_a_signing_key_the_export_page_says_why(officer, world, settings):
    settings.MEMGOV_AUDIT_SIGNING_KEY = ""
    settings.DEBUG = False
    assert 'data-testid="signing-error"' in officer.get("/console/audit/export").content.decode()
    assert officer.post("/console/audit/export", {"format": "jsonl"}).status_code == 503
    assert not AuditEvent.objects.filter(event=Event.AUDIT_EXPORTED).exists()


# --- Subject requests -------------------------------------------------------------------------


def test_subject_lookup_says_what_is_held(officer, world, make_memory):
    make_memory(world.demo, "Alice likes tables", user_id="alice")
    page = officer.get("/console/subjects/", {"subject": "alice"}).content.decode()
    assert 'data-testid="subject-export"' in page and "1 memory is held" in page
    page = officer.get("/console/subjects/", {"subject": "nobody-here"}).content.decode()
    assert 'data-testid="subject-export"' not in page and "Nothing is held" in page


def test_subject_export_holds_their_memories_and_audit_events(officer, world, make_memory):
    memory = make_memory(world.demo, "Alice likes tables", user_id="alice")
    make_memory(world.demo, "Bob likes TL;DR", user_id="bob")
    response = officer.post("/console/subjects/export", {"subject": "alice"})
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert "alice" not in response["Content-Disposition"]
    document = json.loads(response.content)
    assert [m["content"] for m in document["memories"]] == ["Alice likes tables"]
    assert any(e["memory_id"] == str(memory.pk) for e in document["audit_events"])
    recorded = AuditEvent.objects.get(event=Event.SUBJECT_EXPORTED)
    assert (recorded.actor, recorded.subject_id) == ("user:dave", "alice")
    assert b"Alice likes tables" not in json.dumps(recorded.details).encode()


def test_subject_export_of_an_unknown_subject_is_404_and_bad_input_400(officer, world):
    assert officer.post("/console/subjects/export", {"subject": "nobody-here"}).status_code == 404
    assert officer.post("/console/subjects/export", {"subject": ""}).status_code == 400
    assert officer.get("/console/subjects/export").status_code == 405
    assert not AuditEvent.objects.filter(event=Event.SUBJECT_EXPORTED).exists()


def test_erasure_receipts_are_listed(officer, world, make_memory):
    make_memory(world.demo, "Bob likes TL;DR", user_id="bob")
    receipt = subject_erase(tenant_id=world.demo.pk, user_id="bob", actor="user:bob")
    page = officer.get("/console/subjects/").content.decode()
    assert str(receipt.id) in page
    assert str(receipt.id) in officer.get("/console/subjects/", {"subject": "bob"}).content.decode()
    assert str(receipt.id) not in officer.get("/console/subjects/", {"subject": "alice"}).content.decode()


def test_the_console_speaks_chinese_too(officer, world):
    page = officer.get("/console/audit/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "审计日志" in page and "起始" in page  # "From" of a time range, not "From" as in a memory's source
