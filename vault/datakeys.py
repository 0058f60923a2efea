"""Per-subject data keys: created on first use, wrapped by the master key, destroyed on erasure.

A subject's key is ``(tenant, owner)`` where owner is the subject id, or "" for the tenant's shared
scopes (team, project, tenant rules). The keys live in the key store's own database (``KEYS_DB``,
vault/router.py), never in the content database: a key created inside a content transaction commits
on its own, and one whose content rolled back is simply unused. Unwrapped keys are cached briefly in
process memory; erasure clears the cache here and the key row everywhere, so other processes lose access within the TTL.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
import time
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import IntegrityError, connections, transaction

from vault.envelope import unwrap_key, wrap_key
from vault.keyring import get_keyring
from vault.router import KEYS_DB

if TYPE_CHECKING:
    from vault.models import DataKey

_CACHE_SECONDS = 30.0
_cache_lock = threading.Lock()
_by_id: dict[int, tuple[float, bytes]] = {}
_by_owner: dict[tuple[int, str], tuple[float, int, bytes]] = {}


def _wrap_aad(tenant_id: int, owner: str) -> bytes:
    return f"memgov|datakey|{tenant_id}|{owner}".encode()


def _unwrap(row: DataKey) -> bytes:
    keyring = get_keyring()
    return unwrap_key(
        bytes(row.wrapped_key),
        master=keyring.get(row.master_key_version),
        aad=_wrap_aad(row.tenant_id, row.owner),
    )


def _key_row(where: str, params: list[object]) -> DataKey | None:
    """One DataKey row, read with a raw query: a cache miss happens on a write's hot path."""
    from vault.models import DataKey

    table = connections[KEYS_DB].ops.quote_name(DataKey._meta.db_table)
    sql = f"SELECT * FROM {table} WHERE {where}"  # noqa: S608 — fixed clauses from this module; values are parameters
    return next(iter(DataKey.objects.using(KEYS_DB).raw(sql, params)), None)


def data_key_existing(*, tenant_id: int, owner: str) -> tuple[int, bytes] | None:
    """The owner's (id, key) if they have one; None otherwise (never creates one)."""
    return _owner_key(tenant_id=tenant_id, owner=owner, create=False)


def data_key_for(*, tenant_id: int, owner: str) -> tuple[int, bytes]:
    """The (id, key) that encrypts new values for this owner, creating the key on first use."""
    found = _owner_key(tenant_id=tenant_id, owner=owner, create=True)
    if found is None:  # pragma: no cover — _owner_key creates a missing key when asked to
        raise RuntimeError("no data key was created")
    return found


def _owner_key(*, tenant_id: int, owner: str, create: bool) -> tuple[int, bytes] | None:
    from vault.models import DataKey

    now = time.monotonic()
    cached = _by_owner.get((tenant_id, owner))
    if cached and now - cached[0] < _CACHE_SECONDS:
        return cached[1], cached[2]
    row = _key_row("tenant_id = %s AND owner = %s", [tenant_id, owner])
    if row is None and not create:
        return None
    if row is None:
        keyring = get_keyring()
        key = os.urandom(32)
        try:
            with transaction.atomic(using=KEYS_DB):
                row = DataKey.objects.using(KEYS_DB).create(
                    tenant_id=tenant_id,
                    owner=owner,
                    wrapped_key=wrap_key(key, master=keyring.current, aad=_wrap_aad(tenant_id, owner)),
                    master_key_version=keyring.current_version,
                )
        except IntegrityError:  # another writer created it first; use theirs
            row = DataKey.objects.using(KEYS_DB).get(tenant_id=tenant_id, owner=owner)
            key = _unwrap(row)
    else:
        key = _unwrap(row)
    key_id = row.pk

    def remember() -> None:
        with _cache_lock:
            _by_owner[(tenant_id, owner)] = (now, key_id, key)
            _by_id[key_id] = (now, key)

    # Only a committed key may be cached: a key row rolled back with its transaction must never be
    # used again, or values sealed with it could not be opened. Committed in the key store's database,
    # that is: outside a transaction there (the usual case: the key store commits on its own) the key is
    # cached at once, not after the content transaction that asked for it — which would leave every
    # seal of a 50-event append to read the key row again.
    transaction.on_commit(remember, using=KEYS_DB)
    return key_id, key


def data_key_by_id(key_id: int) -> bytes | None:
    """The key with this id, or None when it was destroyed (crypto-shredded)."""

    now = time.monotonic()
    cached = _by_id.get(key_id)
    if cached and now - cached[0] < _CACHE_SECONDS:
        return cached[1]
    row = _key_row("id = %s", [key_id])
    if row is None:
        return None
    key = _unwrap(row)

    def remember() -> None:
        with _cache_lock:
            _by_id[key_id] = (now, key)

    transaction.on_commit(remember, using=KEYS_DB)
    return key


def fingerprint_key(*, tenant_id: int) -> bytes:
    """A tenant-wide HMAC key for dedup fingerprints, derived from the tenant's shared data key."""
    _, shared = data_key_for(tenant_id=tenant_id, owner="")
    return hmac.new(shared, b"memgov|fingerprint|v1", hashlib.sha256).digest()


def data_key_destroy(*, tenant_id: int, owner: str, created_before: datetime | None = None) -> bool:
    """Destroy an owner's data key (crypto-shredding) and drop it from this process's cache; True if
    there was one. Other processes lose it within the cache's lifetime. ``created_before`` spares a key
    made after that moment (a subject id used again after its erasure)."""
    from vault.models import DataKey

    keys = DataKey.objects.using(KEYS_DB).filter(tenant_id=tenant_id, owner=owner)
    if created_before is not None:
        keys = keys.filter(created_at__lte=created_before)
    deleted, _ = keys.delete()
    forget_cached_keys(tenant_id=tenant_id, owner=owner)
    return bool(deleted)


def forget_cached_keys(*, tenant_id: int | None = None, owner: str | None = None) -> None:
    with _cache_lock:
        if tenant_id is None:
            _by_id.clear()
            _by_owner.clear()
            return
        entry = _by_owner.pop((tenant_id, owner or ""), None)
        if entry:
            _by_id.pop(entry[1], None)


def rewrap_all() -> int:
    """Re-wrap every data key under the newest master key version; returns how many changed."""
    from vault.models import DataKey

    keyring = get_keyring()
    changed = 0
    for row in DataKey.objects.using(KEYS_DB).exclude(master_key_version=keyring.current_version).iterator():
        with transaction.atomic(using=KEYS_DB):
            locked = DataKey.objects.using(KEYS_DB).select_for_update().get(pk=row.pk)
            if locked.master_key_version == keyring.current_version:
                continue
            key = _unwrap(locked)
            locked.wrapped_key = wrap_key(key, master=keyring.current, aad=_wrap_aad(locked.tenant_id, locked.owner))
            locked.master_key_version = keyring.current_version
            locked.save(update_fields=["wrapped_key", "master_key_version"])
            changed += 1
    return changed
