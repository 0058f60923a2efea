"""The PostgreSQL role the service runs as: it owns nothing, and may only append to and read the audit log.

Migrations run as the tables' owner; the web and worker processes connect as a separate login role
(``MEMGOV_PG_SERVICE_ROLE``, created by the database administrator) that gets, on every table of the
database, SELECT, INSERT, UPDATE and DELETE — except on the audit tables:

- ``audit_auditevent``: SELECT and INSERT only;
- ``audit_auditchainhead``: SELECT, INSERT and UPDATE (each append moves the head), no DELETE.

No TRUNCATE, REFERENCES or TRIGGER anywhere, and not being the owner it can't ALTER, DROP or disable
triggers. ``manage.py pg_service_role`` applies the grants; ``migrate`` re-applies them by itself when
``MEMGOV_PG_SERVICE_ROLE`` is set (audit/apps.py), so a table added by a release is covered at once.
"""

from __future__ import annotations

from django.db.backends.base.base import BaseDatabaseWrapper

from audit.db import EVENTS, HEAD

APPEND_ONLY = {EVENTS: "SELECT, INSERT", HEAD: "SELECT, INSERT, UPDATE"}


def service_role_statements(connection: BaseDatabaseWrapper, *, role: str) -> list[str]:
    """The GRANT/REVOKE statements that give ``role`` exactly the service's rights on this database."""
    quote = connection.ops.quote_name
    who = quote(role)
    tables = sorted(connection.introspection.table_names(include_views=False))
    statements = [
        f"GRANT CONNECT ON DATABASE {quote(connection.settings_dict['NAME'])} TO {who}",
        f"GRANT USAGE ON SCHEMA public TO {who}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {who}",
    ]
    for table in tables:
        statements.append(f"REVOKE ALL ON TABLE {quote(table)} FROM {who}")
        rights = APPEND_ONLY.get(table, "SELECT, INSERT, UPDATE, DELETE")
        statements.append(f"GRANT {rights} ON TABLE {quote(table)} TO {who}")
    return statements


def service_role_grant(connection: BaseDatabaseWrapper, *, role: str) -> int:
    """Apply the grants (run as the owner); idempotent. Returns how many tables were covered."""
    if connection.vendor != "postgresql":
        raise ValueError("service-role grants are for PostgreSQL; SQLite has no roles")
    statements = service_role_statements(connection, role=role)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        if cursor.fetchone() is None:
            raise ValueError(f"no PostgreSQL role {role!r}: create it first (docs/operations.md, PostgreSQL roles)")
        for sql in statements:
            cursor.execute(sql)
    return sum(1 for sql in statements if sql.startswith("GRANT") and " ON TABLE " in sql)
