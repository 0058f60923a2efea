"""The session purge: ended sessions go after the tenant policy's session_retention_days, not before;
run_lifecycle runs it; a fork still in use keeps the prefix it needs."""

from __future__ import annotations

import json
from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone
from session_helpers import append, fresh

from audit.models import AuditEvent
from conversations.models import Event, Session
from conversations.services.retention import sessions_purge_run
from conversations.services.sessions import SessionChange, session_fork, session_update
from governance.selectors.policy import policy_current
from governance.services.policy import policy_version_create


def end(session, *, days_ago: float) -> None:
    session_update(tenant_id=session.tenant_id, session_id=session.pk, change=SessionChange(state="ended"), actor="t")
    Session.objects.filter(pk=session.pk).update(ended_at=timezone.now() - timedelta(days=days_ago))


def test_ended_sessions_are_purged_after_the_retention_period_only(world, make_session):
    old, recent, active = make_session(), make_session(), make_session()
    for session in (old, recent, active):
        append(session, "something was said")
    end(old, days_ago=31)
    end(recent, days_ago=29)
    result = sessions_purge_run()
    assert result["purged"] == 1 and result["events_deleted"] == 1
    assert set(Session.objects.values_list("pk", flat=True)) == {recent.pk, active.pk}
    row = AuditEvent.objects.get(event="session_deleted")
    assert (row.actor, row.reason_code) == ("system:lifecycle.sessions_purge", "retention_elapsed")
    assert sessions_purge_run()["purged"] == 0  # idempotent


def test_the_retention_comes_from_each_tenants_policy(world, make_session):
    document = {**policy_current(tenant_id=world.demo.pk)[1], "session_retention_days": 7}
    policy_version_create(tenant=world.demo, document=document, actor="test", reason="shorter retention")
    demo, acme = make_session(), make_session("erin", tenant=world.acme)
    for session in (demo, acme):
        append(session, "hello there friend")
        end(session, days_ago=8)
    sessions_purge_run()
    assert list(Session.objects.values_list("pk", flat=True)) == [acme.pk]


def test_a_purged_session_keeps_what_a_live_fork_needs(world, make_session):
    source = make_session()
    events = append(source, "one", "two", "three")
    fork = session_fork(tenant_id=world.demo.pk, session_id=source.pk, from_event_id=events[1].pk, actor="t")
    end(source, days_ago=40)
    sessions_purge_run()
    assert Event.objects.filter(session_id=source.pk).count() == 2
    assert fresh(fork).leaf_id == events[1].pk


def test_run_lifecycle_runs_the_session_purge(world, make_session, capsys):
    session = make_session()
    append(session, "something was said")
    end(session, days_ago=45)
    call_command("run_lifecycle", "--job", "sessions_purge", "--json")
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert row["job"] == "sessions_purge" and row["purged"] == 1
