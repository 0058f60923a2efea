"""Erasure that reaches backups: a tombstone list, and a data key destroyed without a trace.

A subject's erasure first records a tombstone — in the key store's database and as a file in
``MEMGOV_ERASURE_TOMBSTONE_DIR``, outside both databases and their backups — then destroys the data key
and scrubs the key store (dbkit/scrub.py). After a restore from a backup taken before the erasure, the
subject's key and rows are back; ``manage.py apply_erasures`` reads the tombstones (file and table
together) and erases each subject again before the service starts. Keep the tombstone directory off the
database backups, on storage that is never rolled back (docs/operations.md, "Backups and restore").
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from dbkit.scrub import scrub_after_delete, sqlite_secure_delete_on
from vault.datakeys import data_key_destroy
from vault.router import KEYS_DB


@dataclass(frozen=True)
class Tombstone:
    tenant_id: int
    owner: str
    # The latest erasure: re-applying it touches only what existed then, never what the subject id
    # gathered after (it may be used again).
    erased_at: datetime


def _directory() -> Path:
    return Path(settings.MEMGOV_ERASURE_TOMBSTONE_DIR)


def _path(tenant_id: int, owner: str) -> Path:
    digest = hashlib.sha256(owner.encode()).hexdigest()[:32]
    return _directory() / f"{tenant_id}-{digest}.json"


def tombstone_record(*, tenant_id: int, owner: str) -> Tombstone:
    """Record that this subject is erased now, in the key store and in the tombstone directory."""
    from vault.models import ErasureTombstone

    now = timezone.now()
    try:
        with transaction.atomic(using=KEYS_DB):
            ErasureTombstone.objects.using(KEYS_DB).update_or_create(
                tenant_id=tenant_id, owner=owner, defaults={"erased_at": now}
            )
    except IntegrityError:
        pass  # recorded by a concurrent erasure
    path = _path(tenant_id, owner)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump({"tenant_id": tenant_id, "owner": owner, "erased_at": now.isoformat()}, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)  # whole or not at all
    return Tombstone(tenant_id, owner, now)


def tombstones() -> list[Tombstone]:
    """Every recorded erasure, the directory's and the key store's together (either may be the newer),
    each with its latest erasure time."""
    from vault.models import ErasureTombstone

    latest: dict[tuple[int, str], datetime] = {}

    def add(tenant_id: int, owner: str, erased_at: datetime) -> None:
        key = (tenant_id, owner)
        latest[key] = max(erased_at, latest.get(key, erased_at))

    for tenant_id, owner, erased_at in ErasureTombstone.objects.using(KEYS_DB).values_list(
        "tenant_id", "owner", "erased_at"
    ):
        add(tenant_id, owner, erased_at)
    directory = _directory()
    for path in sorted(directory.glob("*.json")) if directory.is_dir() else []:
        record = json.loads(path.read_text())
        add(int(record["tenant_id"]), str(record["owner"]), datetime.fromisoformat(record["erased_at"]))
    return [Tombstone(t, o, at) for (t, o), at in sorted(latest.items())]


def subject_key_shred(*, tenant_id: int, owner: str, reapplying: Tombstone | None = None) -> bool:
    """Tombstone the subject, destroy their data key and scrub it from the key store; True if a key existed.

    Runs in the key store's own database, committed at once: it must not wait for (or roll back with)
    the content transaction that deletes the subject's rows. Re-applying a tombstone (after a restore)
    leaves it as it was and spares a key made after that erasure.
    """
    from vault.models import DataKey

    if reapplying is None:
        tombstone_record(tenant_id=tenant_id, owner=owner)
    sqlite_secure_delete_on(KEYS_DB)
    destroyed = data_key_destroy(
        tenant_id=tenant_id, owner=owner, created_before=reapplying.erased_at if reapplying else None
    )
    if destroyed:
        scrub_after_delete(tables=[DataKey], using=KEYS_DB, full=True)
    return destroyed
