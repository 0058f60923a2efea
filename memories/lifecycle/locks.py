"""A named lock for one run at a time, on any database: a ``JobLock`` row with a holder and a lease.

Taking it is one short transaction: the row is locked (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's
``BEGIN IMMEDIATE`` serializes every write transaction), and it is taken only if free or its lease ran
out — a holder that died frees it after ``LEASE``. Releasing clears it only if this holder still has it.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q

from memories.models import JobLock

LEASE = timedelta(minutes=15)


def job_lock_take(name: str, *, now: datetime, holder: str) -> bool:
    with transaction.atomic():
        JobLock.objects.get_or_create(name=name)
        lock = JobLock.objects.select_for_update().get(name=name)
        if lock.holder and lock.lease_until is not None and lock.lease_until > now:
            return False
        lock.holder, lock.lease_until = holder, now + LEASE
        lock.save(update_fields=["holder", "lease_until"])
        return True


def job_lock_release(name: str, *, holder: str) -> None:
    JobLock.objects.filter(Q(name=name) & Q(holder=holder)).update(holder="", lease_until=None)


@contextmanager
def job_lock(name: str, *, now: datetime) -> Iterator[bool]:
    """``with job_lock("consolidate", now=now) as held:`` — ``held`` False: another run has it."""
    holder = secrets.token_hex(8)
    held = job_lock_take(name, now=now, holder=holder)
    try:
        yield held
    finally:
        if held:
            job_lock_release(name, holder=holder)
