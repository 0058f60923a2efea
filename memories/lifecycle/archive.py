"""Archive on task completion (§10.3 "任务完成后归档"): a finished task's memories leave every read.

Only task-scope memories (level ``task``) are archived: a long-term memory that merely mentions the
task id (a preference learned during it) outlives the task. Pending ones are left to their
confirmation's expiry.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from django.db import transaction

from governance.vocabulary import Level, Status
from memories.lifecycle.base import JobResult, claim, timed_run
from memories.models import Memory
from memories.services.records import memory_archive

JOB = "archive"
ARCHIVABLE = (Status.ACTIVE, Status.PAUSED)
# One request archives at most this many; the response says how many remain, and calling again
# (idempotent) archives the rest.
TASK_COMPLETE_LIMIT = 1000


@dataclass(frozen=True)
class TaskCompletion:
    task_id: str
    found: int  # task-scope memories of this task in the tenant, whatever their status
    archived: int
    remaining: int


def _task_memories(*, tenant_id: int, task_id: str):  # -> QuerySet[Memory]
    return Memory.objects.filter(tenant_id=tenant_id, level=Level.TASK, task_id=task_id)


def task_memory_archive_one(memory_id: UUID, *, tenant_id: int, actor: str) -> bool:
    with transaction.atomic():
        memory = claim(Memory.objects.filter(pk=memory_id, tenant_id=tenant_id, status__in=ARCHIVABLE))
        if memory is None:
            return False
        memory_archive(memory=memory, actor=actor, reason_code="task_completed")
        return True


def task_complete(*, tenant_id: int, task_id: str, actor: str, limit: int | None = None) -> TaskCompletion:
    """Archive the live memories of one task of one tenant; each archival is audited.

    ``found == 0`` means the tenant has no memory for this task at all (the API answers 404).
    """
    limit = limit or TASK_COMPLETE_LIMIT
    result = JobResult(JOB)
    memories = _task_memories(tenant_id=tenant_id, task_id=task_id)
    with timed_run(result):
        found = memories.count()
        live = list(memories.filter(status__in=ARCHIVABLE).order_by("id").values_list("id", flat=True)[: limit + 1])
        for memory_id in live[:limit]:
            result.add(
                "archived" if task_memory_archive_one(memory_id, tenant_id=tenant_id, actor=actor) else "skipped"
            )
        remaining = memories.filter(status__in=ARCHIVABLE).count() if len(live) > limit else 0
    return TaskCompletion(task_id=task_id, found=found, archived=result["archived"], remaining=remaining)
