"""Policy versions: every save is a new version (audited with the changed keys as codes), invalid
documents never get stored, an earlier version comes back as a new one, and decisions record it."""

from __future__ import annotations

import copy

import pytest

from audit.events import Event
from audit.models import AuditEvent
from governance.alerting import AlertThresholds, alert_thresholds_from_document
from governance.models import PolicyVersion
from governance.pipeline.base import Candidate, Scope
from governance.policy import PolicyDocumentError, default_policy_document, policy_snapshot_for_tenant
from governance.services.policy import PolicyError, policy_diff, policy_version_create, policy_version_restore
from governance.vocabulary import Level, MemoryType, SourceType
from memories.services.write import memory_write


def current(world) -> dict:
    return copy.deepcopy(PolicyVersion.objects.filter(tenant=world.demo).order_by("-version").first().document)


def test_saving_creates_the_next_version_and_audits_changed_keys_only(world):
    document = current(world)
    document["ttl_by_type"]["task_state"] = 3600
    document["max_unused_days"] = 90
    saved = policy_version_create(
        tenant=world.demo, document=document, reason="Secret project Falcon", actor="user:carol"
    )
    assert saved.version == 2 and saved.created_by == "user:carol"
    assert policy_snapshot_for_tenant(tenant_id=world.demo.pk).ttl_by_type["task_state"] == 3600
    event = AuditEvent.objects.get(tenant=world.demo, event=Event.POLICY_VERSION_CREATED)
    assert event.policy_version == 2 and event.reason_code == "policy_edited"
    assert event.details == {
        "version": 2,
        "previous_version": 1,
        "changed_keys": ["max_unused_days", "ttl_by_type.task_state"],
    }
    assert "Falcon" not in str(event.details)
    assert policy_snapshot_for_tenant(tenant_id=world.acme.pk).version == 1  # per tenant


def test_decisions_record_the_version_in_force(world):
    document = current(world)
    document["min_inference_confidence"] = 0.9
    policy_version_create(tenant=world.demo, document=document, reason="Stricter inference", actor="user:carol")
    result = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content="The user seems to like dark mode.",
            scope=Scope(Level.USER, user_id="alice"),
            source_type=SourceType.AGENT_INFERENCE,
            type=MemoryType.USER_PREFERENCE,
            confidence=0.7,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
    )
    assert result.decision.policy_version == 2 and result.decision.reason_code == "low_confidence"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["ttl_by_type"].__setitem__("task_state", 0), "ttl_by_type.task_state"),
        (lambda d: d.__setitem__("min_inference_confidence", 1.5), "min_inference_confidence"),
        (lambda d: d.__setitem__("purge_grace_days", -1), "purge_grace_days"),
        (lambda d: d["alerts"].__setitem__("window_hours", 0), "alerts.window_hours"),
        (lambda d: d["alerts"].__setitem__("reject_rate_drop_factor", 2), "alerts.reject_rate_drop_factor"),
        (lambda d: d["alerts"].__setitem__("surprise", 1), "alerts.surprise"),
    ],
)
def test_an_invalid_document_is_refused_naming_the_field(world, change, field):
    document = current(world)
    change(document)
    with pytest.raises(PolicyError) as refused:
        policy_version_create(tenant=world.demo, document=document, reason="try", actor="user:carol")
    assert refused.value.field == field
    assert PolicyVersion.objects.filter(tenant=world.demo).count() == 1
    assert not AuditEvent.objects.filter(event=Event.POLICY_VERSION_CREATED).exists()


def test_a_reason_is_required_and_an_unchanged_document_is_not_a_version(world):
    with pytest.raises(PolicyError) as no_reason:
        policy_version_create(
            tenant=world.demo, document=current(world) | {"max_unused_days": 5}, reason=" ", actor="u"
        )
    assert no_reason.value.field == "reason"
    with pytest.raises(PolicyError) as same:
        policy_version_create(tenant=world.demo, document=current(world), reason="again", actor="u")
    assert same.value.field == ""


def test_restoring_an_earlier_version_makes_a_new_one(world):
    original = current(world)
    policy_version_create(
        tenant=world.demo, document=original | {"purge_grace_days": 1}, reason="fast purge", actor="user:carol"
    )
    restored = policy_version_restore(tenant=world.demo, version=1, reason="back to default", actor="user:frank")
    assert restored.version == 3 and restored.document == original
    assert policy_snapshot_for_tenant(tenant_id=world.demo.pk).purge_grace_days == original["purge_grace_days"]
    event = AuditEvent.objects.filter(event=Event.POLICY_VERSION_CREATED).order_by("-seq").first()
    assert event.reason_code == "policy_restored" and event.details["restored_from"] == 1
    assert event.details["changed_keys"] == ["purge_grace_days"]
    with pytest.raises(PolicyError) as missing:
        policy_version_restore(tenant=world.demo, version=42, reason="x", actor="u")
    assert missing.value.field == "version"
    with pytest.raises(PolicyError):  # acme's versions are not demo's
        policy_version_restore(tenant=world.acme, version=2, reason="x", actor="u")


def test_diff_lists_added_removed_and_changed_keys():
    old = {"a": 1, "ttl_by_type": {"x": None, "y": 2}, "gone": True}
    new = {"a": 1, "ttl_by_type": {"x": 5, "y": 2}, "alerts": {"window_hours": 2}}
    assert policy_diff(old, new) == [("alerts.window_hours", None, 2), ("gone", True, None), ("ttl_by_type.x", None, 5)]


def test_documents_without_alert_thresholds_get_the_defaults():
    document = default_policy_document()
    assert "alerts" in document  # shipped with thresholds...
    bare = {k: v for k, v in document.items() if k != "alerts"}
    assert alert_thresholds_from_document(bare) == AlertThresholds()  # ...and tolerated without them
    partial = alert_thresholds_from_document({"alerts": {"window_hours": 2}})
    assert partial.window_hours == 2 and partial.write_spike_factor == AlertThresholds().write_spike_factor
    with pytest.raises(PolicyDocumentError):
        alert_thresholds_from_document({"alerts": [1, 2]})
