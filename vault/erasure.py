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


def _directory() -> Path:
    return Path(settings.MEMGOV_ERASURE_TOMBSTONE_DIR)


def _path(tombstone: Tombstone) -> Path:
    digest = hashlib.sha256(tombstone.owner.encode()).hexdigest()[:32]
    return _directory() / f"{tombstone.tenant_id}-{digest}.json"


def tombstone_record(*, tenant_id: int, owner: str) -> Tombstone:
    """Record that this subject is erased, in the key store and in the tombstone directory (idempotent)."""
    from vault.models import ErasureTombstone

    tombstone = Tombstone(tenant_id=tenant_id, owner=owner)
    try:
        with transaction.atomic(using=KEYS_DB):
            ErasureTombstone.objects.using(KEYS_DB).get_or_create(tenant_id=tenant_id, owner=owner)
    except IntegrityError:
        pass  # recorded by a concurrent erasure
    path = _path(tombstone)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return tombstone
    with os.fdopen(fd, "w") as handle:
        json.dump({"tenant_id": tenant_id, "owner": owner, "erased_at": timezone.now().isoformat()}, handle)
        handle.flush()
        os.fsync(handle.fileno())
    return tombstone


def tombstones() -> list[Tombstone]:
    """Every recorded erasure: the directory's and the key store's, together (either may be the newer)."""
    from vault.models import ErasureTombstone

    found = {Tombstone(t, o) for t, o in ErasureTombstone.objects.using(KEYS_DB).values_list("tenant_id", "owner")}
    directory = _directory()
    for path in sorted(directory.glob("*.json")) if directory.is_dir() else []:
        record = json.loads(path.read_text())
        found.add(Tombstone(int(record["tenant_id"]), str(record["owner"])))
    return sorted(found, key=lambda t: (t.tenant_id, t.owner))


def subject_key_shred(*, tenant_id: int, owner: str) -> bool:
    """Tombstone the subject, destroy their data key and scrub it from the key store; True if a key existed.

    Runs in the key store's own database, committed at once: it must not wait for (or roll back with)
    the content transaction that deletes the subject's rows.
    """
    from vault.models import DataKey

    tombstone_record(tenant_id=tenant_id, owner=owner)
    sqlite_secure_delete_on(KEYS_DB)
    destroyed = data_key_destroy(tenant_id=tenant_id, owner=owner)
    if destroyed:
        scrub_after_delete(tables=[DataKey], using=KEYS_DB, full=True)
    return destroyed
