"""Shared test people: two tenants, two teammates who must not see each other's memories, an admin,
a compliance officer, and a member of the other tenant (healthchecks-style base)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import TransactionTestCase
from rest_framework.test import APIClient

from audit.db import triggers_disabled
from governance.models import AgentClient, Membership, Tenant
from governance.pipeline.base import Scope
from governance.services.tenancy import (
    agent_key_create,
    membership_set,
    team_create,
    team_member_add,
    tenant_create,
    user_create,
)
from governance.vocabulary import Level, Role
from memories.models import Memory
from memories.services.records import NewMemory, memory_create
from tests.pg_roles import as_owner, switch_to_owner, switch_to_service_role

# Fixtures shared by test directories, each in a module of its own.
pytest_plugins = ["tests.handoff_world"]

PASSWORD = "test-password-1"

# Hypothesis (under the API fuzz test) caches what it learns; keep that out of the work tree.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tempfile.gettempdir()) / "memgov-hypothesis"))


def _flush_without_audit_triggers(original: Callable) -> Callable:
    """Transactional tests empty every table afterwards (PostgreSQL: TRUNCATE); the audit triggers would
    refuse that, and so would the service role the PostgreSQL suite runs as: the owner does it."""

    def teardown(self: TransactionTestCase) -> None:
        from django.db import connections

        aliases = self._databases_names(include_mirrors=False)
        with contextlib.ExitStack() as owners:
            # Every database as the owner first (flush TRUNCATEs every table, the key store's too), and the
            # triggers back in place before any of them logs in as the service role again.
            for alias in aliases:
                owners.enter_context(as_owner(alias))
            with contextlib.ExitStack() as stack:
                for alias in aliases:
                    connection = connections[alias]
                    if connection.vendor in ("sqlite", "postgresql") and "audit_auditevent" in _tables(connection):
                        stack.enter_context(triggers_disabled(connection))
                original(self)
                for alias in aliases:
                    _flush_key_store(connections[alias])

    return teardown


def _flush_key_store(connection: object) -> None:
    """Django's flush empties only the tables the router lets it migrate there, and it lets none of the
    key store's own be migrated without the migrations' ``key_store`` hint: empty them here, or every
    transactional test would leave its data keys and erasure tombstones behind for the next test."""
    from django.apps import apps

    from vault.router import KEYS_DB

    if connection.alias != KEYS_DB:  # type: ignore[attr-defined]
        return
    existing = set(_tables(connection))
    tables = [model._meta.db_table for model in apps.get_app_config("vault").get_models()]
    with connection.cursor() as cursor:  # type: ignore[attr-defined]
        for table in tables:
            if table in existing:
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")  # type: ignore[attr-defined]


def _tables(connection: object) -> list[str]:
    return connection.introspection.table_names()  # type: ignore[attr-defined]


_DB_FIXTURES = frozenset(
    {"db", "transactional_db", "live_server", "django_db_reset_sequences", "django_db_serialized_rollback"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every database test may use the key store's database too (vault/router.py): the data keys live
    there, and whatever seals or opens a value reaches it."""
    for item in items:
        marker = item.get_closest_marker("django_db")
        fixtures = set(getattr(item, "fixturenames", ()))
        if marker is None and not fixtures & _DB_FIXTURES:
            continue
        kwargs = dict(marker.kwargs) if marker is not None else {}
        if marker is not None and marker.args:
            kwargs.setdefault("transaction", marker.args[0])
        if "databases" in kwargs:
            continue
        if fixtures & {"transactional_db", "live_server"}:
            kwargs.setdefault("transaction", True)
        item.add_marker(pytest.mark.django_db(**kwargs, databases="__all__"), append=False)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: object) -> Iterator[None]:
    """The databases are created and migrated as the owner; the PostgreSQL suite then runs as the service
    role when MEMGOV_TEST_PG_SERVICE_ROLE is set (tests/pg_roles.py)."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        switch_to_service_role()
    yield
    switch_to_owner()


TransactionTestCase._fixture_teardown = _flush_without_audit_triggers(TransactionTestCase._fixture_teardown)


@dataclass
class World:
    demo: Tenant
    acme: Tenant
    alice: Membership
    bob: Membership
    carol: Membership
    dave: Membership
    erin: Membership
    demo_agent: AgentClient
    demo_key: str
    acme_agent: AgentClient
    acme_key: str

    def agent_client(self, key: str) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
        return client

    def user_client(self, membership: Membership) -> APIClient:
        client = APIClient()
        client.force_login(membership.user)
        return client


def _person(tenant: Tenant, username: str, role: Role) -> Membership:
    user = user_create(username=username, password=PASSWORD)
    return membership_set(tenant=tenant, user=user, role=role, actor="test")


@pytest.fixture
def world(db: None) -> World:
    demo = tenant_create(slug="demo", actor="test")
    acme = tenant_create(slug="acme", actor="test")
    team = team_create(tenant=demo, slug="ai-platform", actor="test")
    alice = _person(demo, "alice", Role.MEMBER)
    bob = _person(demo, "bob", Role.MEMBER)
    carol = _person(demo, "carol", Role.TENANT_ADMIN)
    dave = _person(demo, "dave", Role.COMPLIANCE_OFFICER)
    erin = _person(acme, "erin", Role.MEMBER)
    for membership in (alice, bob):
        team_member_add(team=team, membership=membership, actor="test")
    team_member_add(team=team, membership=carol, is_owner=True, actor="test")
    demo_agent, demo_key = agent_key_create(tenant=demo, name="demo-agent", actor="test")
    acme_agent, acme_key = agent_key_create(tenant=acme, name="acme-agent", actor="test")
    return World(demo, acme, alice, bob, carol, dave, erin, demo_agent, demo_key, acme_agent, acme_key)


@pytest.fixture
def make_memory() -> Callable[..., Memory]:
    def make(
        tenant: Tenant,
        content: str,
        *,
        user_id: str = "",
        level: Level = Level.USER,
        type: str = "user_preference",
        source_type: str = "explicit_user_request",
        **scope: str,
    ) -> Memory:
        return memory_create(
            tenant_id=tenant.pk,
            new=NewMemory(
                scope=Scope(level, user_id=user_id, **scope),
                type=type,
                content=content,
                source_type=source_type,
            ),
            actor="test",
        )

    return make


@pytest.fixture(autouse=True)
def _audit_checkpoints_in_tmp(settings: object, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test writes its audit checkpoints and erasure tombstones to folders of its own, never into var/."""
    settings.MEMGOV_AUDIT_CHECKPOINT_DIR = tmp_path_factory.mktemp("checkpoints")  # type: ignore[attr-defined]
    settings.MEMGOV_ERASURE_TOMBSTONE_DIR = tmp_path_factory.mktemp("tombstones")  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Throttling counters (failed keys, lockouts) live in the cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _forget_cached_data_keys() -> None:
    """Each test's database starts empty; keys cached by an earlier test must not leak into it."""
    from vault.datakeys import forget_cached_keys

    forget_cached_keys()
