"""The PostgreSQL suite runs as the service role (``MEMGOV_TEST_PG_SERVICE_ROLE=name:password``, set by
.ci/run): the test databases are created and migrated as the owner, then every connection logs in as the
service role. A test that needs the owner (migrations, a tamperer dropping triggers) says so with
:func:`as_owner`, which needs committed data (``django_db(transaction=True)``) — it is another login."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connections

_owner: dict[str, tuple[str, str]] = {}
_depth: dict[str, int] = {}  # 1 while an as_owner() holds the alias: an inner one changes nothing


def service_role() -> tuple[str, str] | None:
    value = os.environ.get("MEMGOV_TEST_PG_SERVICE_ROLE", "")
    if not value:
        return None
    name, _, password = value.partition(":")
    return name, password


def _login(alias: str, user: str, password: str) -> None:
    connection = connections[alias]
    connection.close()
    connection.settings_dict["USER"], connection.settings_dict["PASSWORD"] = user, password


def switch_to_service_role() -> None:
    """After the test databases exist: grant the service role its rights, then log in as it."""
    from audit.pg_roles import service_role_grant

    role = service_role()
    if role is None:
        return
    for alias in connections:
        connection = connections[alias]
        if connection.vendor != "postgresql":
            continue
        service_role_grant(connection, role=role[0])
        _owner[alias] = (connection.settings_dict["USER"], connection.settings_dict["PASSWORD"])
        _login(alias, *role)


def switch_to_owner() -> None:
    """At the end of the session: the owner drops the test databases."""
    for alias, (user, password) in list(_owner.items()):
        _login(alias, user, password)
        del _owner[alias]


def runs_as_service_role(alias: str = "default") -> bool:
    return alias in _owner


@contextmanager
def as_owner(alias: str = "default") -> Iterator[None]:
    """Log in as the tables' owner for the duration (a no-op unless the suite runs as the service role)."""
    role = service_role()
    if alias not in _owner or role is None or _depth.get(alias):
        yield  # not running as the service role, or already the owner (an outer as_owner)
        return
    if connections[alias].in_atomic_block:
        raise RuntimeError("as_owner() is another login: use django_db(transaction=True)")
    _login(alias, *_owner[alias])
    _depth[alias] = 1
    try:
        yield
    finally:
        _depth[alias] = 0
        # What the owner did may have created tables (a test that migrates back and forth): grant the
        # service role its rights on them, as ``migrate`` does in production (audit/apps.py).
        if _tables_without_grants(alias, role[0]):
            from audit.pg_roles import service_role_grant

            service_role_grant(connections[alias], role=role[0])
        _login(alias, *role)


def _tables_without_grants(alias: str, role: str) -> int:
    with connections[alias].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r' AND NOT has_table_privilege(%s, c.oid, 'SELECT')",
            [role],
        )
        return cursor.fetchone()[0]
