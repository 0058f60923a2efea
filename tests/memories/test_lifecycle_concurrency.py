"""Two workers running the same job at the same moment produce each effect exactly once.

Each "worker" is a thread with its own database connection, released together by a barrier, on
committed data (transactional tests) — on SQLite the IMMEDIATE transactions serialize them, on
PostgreSQL ``FOR UPDATE SKIP LOCKED`` lets them share the batch.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from audit.models import AuditEvent
from audit.verify import verify_chain
from governance.models import TeamMembership
from governance.pipeline.base import Scope
from governance.vocabulary import Level, Status
from memories.lifecycle.base import JobResult
from memories.lifecycle.consolidate import consolidate_run
from memories.lifecycle.expire import expire_run
from memories.lifecycle.invalidate import invalidate_run
from memories.lifecycle.purge import purge_run
from memories.lifecycle.unused import unused_run
from memories.models import Memory, MergeProposal
from memories.services.records import NewMemory, memory_create, memory_delete

N = 12


def _memory(tenant, content, *, user_id="alice", level=Level.USER, expires_at=None, **scope) -> Memory:
    return memory_create(
        tenant_id=tenant.pk,
        new=NewMemory(
            scope=Scope(level, user_id=user_id, **scope),
            type="user_preference",
            content=content,
            source_type="explicit_user_request",
            expires_at=expires_at,
        ),
        actor="test",
    )


def _two_workers(run: Callable[[], JobResult]) -> list[JobResult]:
    barrier = threading.Barrier(2)
    results: list[JobResult] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait(timeout=30)
            results.append(run())
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert len(results) == 2
    return results


def _once_each(event: str, memories: list[Memory]) -> None:
    per_memory = Counter(
        AuditEvent.objects.filter(event=event, memory_id__in=[m.pk for m in memories]).values_list(
            "memory_id", flat=True
        )
    )
    assert sorted(per_memory.values()) == [1] * len(memories), per_memory


def _total(results: list[JobResult], outcome: str) -> int:
    return sum(result[outcome] for result in results)


pytestmark = pytest.mark.django_db(transaction=True)


def test_two_workers_expire_each_memory_once(world):
    now = timezone.now()
    memories = [_memory(world.demo, f"pref {i}", expires_at=now + timedelta(hours=1)) for i in range(N)]
    results = _two_workers(lambda: expire_run(now=now + timedelta(hours=2)))
    assert _total(results, "expired") == N
    _once_each("memory_expired", memories)
    assert set(Memory.objects.values_list("status", flat=True)) == {Status.EXPIRED}
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_two_workers_archive_each_unused_memory_once(world):
    memories = [_memory(world.demo, f"pref {i}") for i in range(N)]
    results = _two_workers(lambda: unused_run(now=timezone.now() + timedelta(days=200)))
    assert _total(results, "archived") == N
    _once_each("memory_archived", memories)
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_two_workers_purge_each_memory_once(world):
    memories = [memory_delete(memory=_memory(world.demo, f"pref {i}"), actor="test") for i in range(N)]
    results = _two_workers(lambda: purge_run(now=timezone.now() + timedelta(days=40)))
    assert _total(results, "purged") == N
    _once_each("memory_purged", memories)
    assert not Memory.objects.exists()
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_two_workers_invalidate_each_memory_once(world):
    memories = [_memory(world.demo, f"note {i}", level=Level.TEAM, team="ai-platform") for i in range(N)]
    TeamMembership.objects.filter(membership=world.alice).delete()
    results = _two_workers(invalidate_run)
    assert _total(results, "archived") == N
    _once_each("memory_archived", memories)
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_two_workers_propose_each_merge_once(world):
    subjects = [f"subject-{i}" for i in range(N)]
    for user_id in subjects:
        _memory(world.demo, "Prefers Markdown tables when comparing options.", user_id=user_id)
        _memory(world.demo, "Prefers Markdown tables when comparing options", user_id=user_id)
    results = _two_workers(consolidate_run)
    assert _total(results, "proposed") == N
    assert _total(results, "subjects_checked") == N
    assert sorted(MergeProposal.objects.values_list("user_id", flat=True)) == sorted(subjects)
    assert AuditEvent.objects.filter(event="memory_write_requested", actor="system:lifecycle.consolidate").count() == N
    assert verify_chain(tenant_id=world.demo.pk).ok
