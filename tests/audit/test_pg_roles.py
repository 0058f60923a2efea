"""Least privilege on PostgreSQL: the service's role may append to and read the audit log, nothing more;
the owner's TRUNCATE is refused by a trigger. (CI runs the PostgreSQL suite as that role.)"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from audit.events import Event
from audit.pg_roles import service_role_statements
from audit.services import audit_record
from audit.verify import verify_chain
from tests.pg_roles import runs_as_service_role, service_role

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="roles and TRUNCATE are PostgreSQL's")

ATTACKS = [
    "UPDATE audit_auditevent SET actor = 'mallory'",
    "DELETE FROM audit_auditevent",
    "TRUNCATE audit_auditevent",
    "TRUNCATE audit_auditchainhead",
    "DELETE FROM audit_auditchainhead",
    "ALTER TABLE audit_auditevent DISABLE TRIGGER ALL",
    "ALTER TABLE audit_auditevent DISABLE TRIGGER audit_auditevent_append_only",
    "DROP TRIGGER audit_auditevent_append_only ON audit_auditevent",
    "CREATE TRIGGER t BEFORE INSERT ON audit_auditevent FOR EACH ROW EXECUTE FUNCTION memgov_refuse_audit_change()",
    "ALTER TABLE audit_auditevent OWNER TO CURRENT_USER",
    "DROP TABLE audit_auditevent",
]


def _refused(sql: str) -> str:
    with pytest.raises(DatabaseError) as info, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    return str(info.value)


@pytest.mark.parametrize("sql", ATTACKS)
def test_the_service_role_cannot_change_or_remove_audit_rows_or_their_triggers(world, sql):
    if not runs_as_service_role():
        pytest.skip("the suite runs as the owner here (set MEMGOV_TEST_PG_SERVICE_ROLE, as CI does)")
    audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="test")
    message = _refused(sql)
    assert "permission denied" in message or "must be owner" in message or "append-only" in message
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_the_service_role_still_appends_and_reads(world):
    if not runs_as_service_role():
        pytest.skip("the suite runs as the owner here (set MEMGOV_TEST_PG_SERVICE_ROLE, as CI does)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == service_role()[0]
    event = audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="test")
    assert verify_chain(tenant_id=world.demo.pk).ok and event.seq > 1


def test_even_the_owner_cannot_truncate_while_the_trigger_stands(world):
    audit_record(tenant_id=world.demo.pk, event=Event.MEMORY_READ, actor="test")
    for table in ("audit_auditevent", "audit_auditchainhead"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {table} CASCADE")
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_the_grants_give_the_audit_tables_select_and_insert_only(world):
    statements = service_role_statements(connection, role="memgov_app")
    grants = {
        sql.split(" ON TABLE ")[1].split(" TO ")[0].strip('"'): sql.split(" ON TABLE ")[0]
        for sql in statements
        if sql.startswith("GRANT") and " ON TABLE " in sql
    }
    assert grants["audit_auditevent"] == "GRANT SELECT, INSERT"
    assert grants["audit_auditchainhead"] == "GRANT SELECT, INSERT, UPDATE"
    assert grants["memories_memory"] == "GRANT SELECT, INSERT, UPDATE, DELETE"
    assert not any("TRUNCATE" in sql or "TRIGGER" in sql for sql in statements)


def test_the_setup_command_names_a_missing_role(world):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no PostgreSQL role"):
        call_command("pg_service_role", role="no_such_role_here")
