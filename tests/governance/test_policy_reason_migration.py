"""Migration governance 0005: policy reasons typed before it are sealed, and read back the same."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from governance.models import PolicyVersion
from tests.pg_roles import as_owner

BEFORE = [("governance", "0004_invitations")]
AFTER = [("governance", "0005_policy_reason_encrypted")]
REASON = "Legal asked for 30 days: ticket LEGAL-77, per Dana's e-mail"


def _migrate(target: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_reasons_stored_in_plain_text_are_sealed_by_the_migration():
    with as_owner():  # migrations run as the tables' owner
        _reasons_are_sealed()


def _reasons_are_sealed() -> None:
    old = _migrate(BEFORE)
    try:
        tenant = old.get_model("governance", "Tenant").objects.create(slug="legacy", name="Legacy")
        row = old.get_model("governance", "PolicyVersion").objects.create(
            tenant=tenant, version=1, document={}, reason=REASON, created_by="cli:root"
        )
        empty = old.get_model("governance", "PolicyVersion").objects.create(
            tenant=tenant, version=2, document={}, reason="", created_by="cli:root"
        )
        _migrate(AFTER)
        with connection.cursor() as cursor:
            cursor.execute("SELECT reason FROM governance_policyversion WHERE id = %s", [row.pk])
            stored = bytes(cursor.fetchone()[0])
        assert REASON.encode() not in stored and b"LEGAL-77" not in stored
        assert PolicyVersion.objects.get(pk=row.pk).reason == REASON
        assert PolicyVersion.objects.get(pk=empty.pk).reason is None
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_a_saved_policy_reason_is_stored_sealed(world):
    from governance.selectors.policy import policy_current
    from governance.services.policy import policy_version_create

    document = policy_current(tenant_id=world.demo.pk)[1] | {"max_unused_days": 45}
    version = policy_version_create(tenant=world.demo, document=document, reason=REASON, actor="user:carol")
    with connection.cursor() as cursor:
        cursor.execute("SELECT reason FROM governance_policyversion WHERE id = %s", [version.pk])
        stored = bytes(cursor.fetchone()[0])
    assert b"LEGAL-77" not in stored
    assert PolicyVersion.objects.get(pk=version.pk).reason == REASON


@pytest.mark.django_db
def test_sealing_before_the_row_has_an_id_is_refused(world):
    """The associated data names the row's id: sealing with no id yet would store a value nobody can open."""
    from django.core.exceptions import FieldError
    from django.db import transaction

    with pytest.raises(FieldError, match="no id yet"), transaction.atomic():
        PolicyVersion.objects.create(tenant=world.demo, version=9, document={}, reason=REASON, created_by="t")
    assert not PolicyVersion.objects.filter(tenant=world.demo, version=9).exists()
