"""The documented backup and restore procedure keeps erasures erased, end to end, with the real commands
(docs/operations.md, "Backups and restore"): back up both databases, erase a subject, restore both from
the backup, run apply_erasures, and try to read. On SQLite (the files) and PostgreSQL (pg_dump/pg_restore)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import dj_database_url
from django.conf import settings
from django.db import connection

PEOPLE = """
from governance.models import Tenant
from governance.pipeline.base import Scope
from governance.services.tenancy import tenant_create
from memories.services.records import NewMemory, memory_create
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import session_create
tenant = tenant_create(slug="demo", actor="test")
for user_id, text in (("alice", "Alice is allergic to penicillin"), ("bob", "Bob prefers short answers")):
    memory_create(tenant_id=tenant.pk, new=NewMemory(scope=Scope("user", user_id=user_id), type="user_profile",
                  content=text, source_type="explicit_user_request"), actor="test")
    session = session_create(tenant_id=tenant.pk, user_id=user_id, app="chat", actor="test")
    session_events_append(tenant_id=tenant.pk, session_id=session.pk, actor="test",
                          events=[NewEvent(kind="user_message", content=f"{user_id} says hello")])
"""

MIGRATE_KEYS = """
from django.core.management import call_command
call_command("migrate", database="keys", interactive=False, verbosity=0)
"""

ERASE = """
from django.core.management import call_command
call_command("erase_subject", tenant="demo", user_id="alice")
"""

APPLY = """
from django.core.management import call_command
call_command("apply_erasures", vacuum=True)
print("--- applied")
"""

READ = """
from conversations.models import Event, Session
from memories.models import Memory
from vault import DecryptionError
from vault.models import DataKey
for user_id in ("alice", "bob"):
    rows = list(Memory.objects.filter(user_id=user_id))
    texts = []
    for row in rows:
        try:
            texts.append(row.content)
        except DecryptionError:
            texts.append("<unreadable>")
    keys = DataKey.objects.filter(owner=user_id).count()
    sessions = Session.objects.filter(user_id=user_id).count()
    events = Event.objects.filter(session__user_id=user_id).count()
    print(f"{user_id}: rows={len(rows)} keys={keys} texts={texts} sessions={sessions} events={events}")
"""


def _manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result.stdout


class _Sqlite:
    def __init__(self, tmp: Path) -> None:
        self.files = [tmp / "memgov.sqlite3", tmp / "memgov-keys.sqlite3"]
        self.url = f"sqlite:///{self.files[0]}"
        self.backups = [tmp / f"backup-{path.name}" for path in self.files]

    def backup(self) -> None:  # SQLite's online backup API: a consistent copy of a live database
        for path, copy in zip(self.files, self.backups, strict=True):
            with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
                source.backup(target)

    def restore(self) -> None:  # the service is stopped: put the copies back, with no WAL of the old files
        for path, copy in zip(self.files, self.backups, strict=True):
            for leftover in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                leftover.unlink(missing_ok=True)
            shutil.copyfile(copy, path)

    def drop(self) -> None:
        pass


class _Postgres:
    def __init__(self, tmp: Path) -> None:
        owner = dj_database_url.parse(os.environ["DATABASE_URL"])  # the owner's URL: backups are the DBA's job
        self.name = f"mg_e2e_{uuid.uuid4().hex[:8]}"
        self.names = [self.name, f"{self.name}_keys"]
        auth = f"{owner['USER']}:{owner['PASSWORD']}@{owner['HOST'] or '127.0.0.1'}:{owner['PORT'] or 5432}"
        self.server = f"postgres://{auth}"
        self.url = f"{self.server}/{self.name}"
        self.env = {**os.environ, "PGPASSWORD": str(owner["PASSWORD"])}
        self.args = [
            "-h",
            str(owner["HOST"] or "127.0.0.1"),
            "-p",
            str(owner["PORT"] or 5432),
            "-U",
            str(owner["USER"]),
        ]
        self.dumps = [tmp / f"{name}.dump" for name in self.names]
        for name in self.names:
            self._psql(f'CREATE DATABASE "{name}"')

    def _psql(self, sql: str) -> None:
        subprocess.run(
            ["psql", *self.args, "-d", "postgres", "-qc", sql], env=self.env, check=True, capture_output=True
        )

    def backup(self) -> None:
        for name, dump in zip(self.names, self.dumps, strict=True):
            subprocess.run(["pg_dump", *self.args, "-Fc", "-f", str(dump), name], env=self.env, check=True)

    def restore(self) -> None:
        for name, dump in zip(self.names, self.dumps, strict=True):
            subprocess.run(
                ["pg_restore", *self.args, "--clean", "--if-exists", "--single-transaction", "-d", name, str(dump)],
                env=self.env,
                check=True,
                capture_output=True,
            )

    def drop(self) -> None:
        for name in self.names:
            self._psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_restore_from_before_an_erasure_is_erased_again_by_apply_erasures(tmp_path):
    stack = _Postgres(tmp_path) if connection.vendor == "postgresql" else _Sqlite(tmp_path)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": stack.url,
        "MEMGOV_VAR_DIR": str(tmp_path / "var"),
        "MEMGOV_ERASURE_TOMBSTONE_DIR": str(tmp_path / "tombstones"),  # kept off the database backups
        "MEMGOV_AUDIT_CHECKPOINT_DIR": str(tmp_path / "checkpoints"),
    }
    env.pop("MEMGOV_KEYS_DATABASE_URL", None)  # the default: beside the content database
    try:
        _manage(env, "migrate", "--noinput")
        # One process for several steps where nothing happens in between: each start costs seconds.
        _manage(env, "shell", "-c", MIGRATE_KEYS + PEOPLE)
        stack.backup()

        erased = _manage(env, "shell", "-c", ERASE + READ)
        assert "alice: rows=0 keys=0 texts=[] sessions=0 events=0" in erased

        stack.restore()
        restored = _manage(env, "shell", "-c", READ + APPLY + READ + APPLY)
        first, second, _ = restored.split("--- applied")
        # The restore brought the erased subject back, key and all: this is what apply_erasures is for.
        assert "alice: rows=1 keys=1 texts=['Alice is allergic to penicillin'] sessions=1 events=1" in first
        assert "1 re-applied" in first and "1 sessions" in first
        assert "alice: rows=0 keys=0 texts=[] sessions=0 events=0" in second
        assert "bob: rows=1 keys=1 texts=['Bob prefers short answers'] sessions=1 events=1" in second
        assert "0 re-applied" in second  # idempotent
        if connection.vendor == "postgresql":  # run as the owner, it vacuums what it touched, the key table in full
            assert "memories_datakey" in first and "memories_memory" in first
    finally:
        stack.drop()
