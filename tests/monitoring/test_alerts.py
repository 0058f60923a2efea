"""§17.3 alerts: thresholds from the policy, judged per closed window, raised once per window
(a row and an ``alert_raised`` event), whether run by beat, by the command, or twice at once."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from io import StringIO

import time_machine
from django.core.management import call_command

from audit.events import Event
from audit.models import AuditEvent
from audit.services import audit_append, audit_fields
from governance.alerting import AlertKind
from governance.models import Alert, PolicyVersion
from governance.services.policy import policy_version_create
from monitoring.alerts import alert_window, alerts_evaluate
from monitoring.tasks import alerts_evaluate_task

WINDOW = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)  # the window [10:00, 11:00)
NOW = WINDOW + timedelta(hours=1, minutes=7)


def record(world, event: Event, n: int, *, at: datetime, **fields) -> None:
    with time_machine.travel(at, tick=False):
        audit_append(
            [audit_fields(tenant_id=world.demo.pk, event=event, actor="agent:demo-agent", **fields) for _ in range(n)]
        )


def kinds(alerts) -> set[str]:
    return {alert.kind for alert in alerts}


def test_the_window_is_the_last_closed_one():
    assert alert_window(now=NOW, hours=1) == (WINDOW, WINDOW + timedelta(hours=1))
    assert alert_window(now=datetime(2026, 3, 2, 13, 59, tzinfo=UTC), hours=4) == (
        datetime(2026, 3, 2, 8, tzinfo=UTC),
        datetime(2026, 3, 2, 12, tzinfo=UTC),
    )


def test_any_cross_scope_read_raises_one_alert_per_window(world):
    record(world, Event.CROSS_SCOPE_READ, 1, at=WINDOW + timedelta(minutes=20))
    raised = alerts_evaluate(tenant_id=world.demo.pk, now=NOW)
    assert kinds(raised) == {AlertKind.CROSS_SCOPE_READ}
    assert alerts_evaluate(tenant_id=world.demo.pk, now=NOW) == []  # beat runs again: nothing new
    assert alerts_evaluate(tenant_id=world.demo.pk, now=NOW + timedelta(minutes=30)) == []  # same window
    assert Alert.objects.filter(tenant=world.demo).count() == 1
    event = AuditEvent.objects.get(event=Event.ALERT_RAISED)
    assert event.tenant_id == world.demo.pk and event.reason_code == "cross_scope_read" and event.policy_version == 1
    assert event.details["window_start"] == int(WINDOW.timestamp()) and event.details["observed"] == "1"
    assert alerts_evaluate(tenant_id=world.demo.pk, now=NOW + timedelta(hours=1)) == []  # the next window is quiet
    assert alerts_evaluate(tenant_id=world.acme.pk, now=NOW) == []  # per tenant


def test_a_write_spike_against_the_baseline(world):
    for hours_before in range(1, 25):
        record(world, Event.MEMORY_WRITE_REQUESTED, 2, at=WINDOW - timedelta(hours=hours_before), memory_id="0" * 32)
    record(world, Event.MEMORY_WRITE_REQUESTED, 7, at=WINDOW + timedelta(minutes=5), memory_id="0" * 32)
    assert alerts_evaluate(tenant_id=world.demo.pk, now=NOW) == []  # 7 > 3 × 2 but under the 20-write floor
    record(world, Event.MEMORY_WRITE_REQUESTED, 20, at=WINDOW + timedelta(minutes=6), memory_id="0" * 32)
    spike = alerts_evaluate(tenant_id=world.demo.pk, now=NOW)
    assert kinds(spike) == {AlertKind.WRITE_SPIKE}
    assert spike[0].observed == 27 and spike[0].baseline == 2


def test_a_reject_rate_drop(world):
    for hours_before in range(1, 25):  # baseline: 10 writes an hour, half of them rejected
        record(world, Event.MEMORY_WRITE_REQUESTED, 5, at=WINDOW - timedelta(hours=hours_before))
        record(world, Event.MEMORY_WRITE_REQUESTED, 5, at=WINDOW - timedelta(hours=hours_before), memory_id="0" * 32)
    record(world, Event.MEMORY_WRITE_REQUESTED, 20, at=WINDOW + timedelta(minutes=5), memory_id="0" * 32)
    record(world, Event.MEMORY_WRITE_REQUESTED, 1, at=WINDOW + timedelta(minutes=5))
    dropped = alerts_evaluate(tenant_id=world.demo.pk, now=NOW)
    assert kinds(dropped) == {AlertKind.REJECT_RATE_DROP}
    assert round(dropped[0].observed, 3) == round(1 / 21, 3) and dropped[0].baseline == 0.5


def test_sensitive_detection_spike_stale_use_and_token_growth(world):
    record(world, Event.MEMORY_CANDIDATE_DETECTED, 6, at=WINDOW + timedelta(minutes=1), sensitivity="restricted")
    record(
        world, Event.MEMORY_INJECTED, 10, at=WINDOW - timedelta(hours=2), details={"memory_ids": [], "token_count": 100}
    )
    record(
        world,
        Event.MEMORY_INJECTED,
        10,
        at=WINDOW + timedelta(minutes=2),
        details={"memory_ids": [], "token_count": 400},
    )
    # A memory deleted, then injected: what a broken read path would do.
    record(world, Event.MEMORY_DELETED, 1, at=WINDOW + timedelta(minutes=3), memory_id="1" * 32)
    record(
        world,
        Event.MEMORY_INJECTED,
        1,
        at=WINDOW + timedelta(minutes=4),
        details={"memory_ids": ["1" * 32], "token_count": 400},
    )
    raised = alerts_evaluate(tenant_id=world.demo.pk, now=NOW)
    assert kinds(raised) == {AlertKind.SENSITIVE_SPIKE, AlertKind.STALE_USE, AlertKind.CONTEXT_TOKEN_GROWTH}
    assert AuditEvent.objects.filter(event=Event.ALERT_RAISED).count() == 3


def test_thresholds_come_from_the_policy_in_force(world):
    document = copy.deepcopy(PolicyVersion.objects.get(tenant=world.demo, version=1).document)
    document["alerts"]["cross_scope_reads_max"] = 5
    policy_version_create(
        tenant=world.demo, document=document, reason="noisy integration test agent", actor="user:carol"
    )
    record(world, Event.CROSS_SCOPE_READ, 3, at=WINDOW + timedelta(minutes=20))
    assert alerts_evaluate(tenant_id=world.demo.pk, now=NOW) == []


def test_a_policy_without_alert_keys_uses_the_defaults(world):
    document = copy.deepcopy(PolicyVersion.objects.get(tenant=world.demo, version=1).document)
    del document["alerts"]
    PolicyVersion.objects.create(tenant=world.demo, version=2, document=document, created_by="test")
    record(world, Event.CROSS_SCOPE_READ, 1, at=WINDOW + timedelta(minutes=20))
    raised = alerts_evaluate(tenant_id=world.demo.pk, now=NOW)
    assert kinds(raised) == {AlertKind.CROSS_SCOPE_READ}
    assert AuditEvent.objects.get(event=Event.ALERT_RAISED).policy_version == 2


def test_the_command_and_the_task_raise_once(world):
    record(world, Event.CROSS_SCOPE_READ, 1, at=WINDOW + timedelta(minutes=20))
    out = StringIO()
    call_command("evaluate_alerts", "--at", NOW.strftime("%Y-%m-%dT%H:%M"), stdout=out)
    assert "demo\tcross_scope_read\t2026-03-02T10:00Z" in out.getvalue()
    assert out.getvalue().rstrip().endswith("1 alert(s) raised for 2 tenant(s).")
    with time_machine.travel(NOW, tick=False):
        assert alerts_evaluate_task() == {"acme": 0, "demo": 0}
    assert Alert.objects.count() == 1


def test_the_metrics_page_shows_raised_alerts(client, world):
    record(world, Event.CROSS_SCOPE_READ, 1, at=WINDOW + timedelta(minutes=20))
    alerts_evaluate(tenant_id=world.demo.pk, now=NOW)
    client.force_login(world.carol.user)
    with time_machine.travel(NOW, tick=False):
        page = client.get("/console/metrics/")
        again = client.get("/console/metrics/")
    assert 'data-kind="cross_scope_read"' in page.content.decode() and again.status_code == 200
    assert AuditEvent.objects.filter(event=Event.ALERT_RAISED).count() == 1  # viewing raises nothing
