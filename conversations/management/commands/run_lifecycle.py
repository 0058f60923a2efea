"""Run lifecycle jobs now, in this process (operators, tests, cron without Celery)."""

from __future__ import annotations

import getpass
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.lifecycle import all_jobs_run, all_periodic_jobs
from conversations.services.tasks import task_complete
from governance.models import Tenant
from memories.lifecycle import MAX_BATCHES
from memories.lifecycle.base import DEFAULT_BATCH_SIZE


class Command(BaseCommand):
    help = (
        "Run lifecycle jobs (all periodic ones when --job is omitted) and print their counts. "
        "--job archive archives one finished task, its memories and its task state (--tenant and --task-id required)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--job", choices=[*all_periodic_jobs(), "archive"], help="one job; all periodic jobs if omitted"
        )
        parser.add_argument("--tenant", help="tenant slug; all tenants if omitted")
        parser.add_argument("--task-id", help="with --job archive: the finished task")
        parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE)
        parser.add_argument("--max-batches", type=int, default=MAX_BATCHES)
        parser.add_argument("--json", action="store_true", help="one JSON object per job")

    def handle(self, *args: object, **options: object) -> None:
        batch_size, max_batches = int(options["batch_size"]), int(options["max_batches"])
        if batch_size < 1 or max_batches < 1:
            raise CommandError("--batch-size and --max-batches must be at least 1")
        tenant_id = None
        if options["tenant"]:
            tenant_id = Tenant.objects.filter(slug=options["tenant"]).values_list("pk", flat=True).first()
            if tenant_id is None:
                raise CommandError(f"no tenant {options['tenant']!r}")
        if options["job"] == "archive":
            rows = [self._archive(tenant_id, options["task_id"])]
        else:
            jobs = [options["job"]] if options["job"] else list(all_periodic_jobs())
            rows = [
                all_jobs_run(job, tenant_id=tenant_id, batch_size=batch_size, max_batches=max_batches) for job in jobs
            ]
        for row in rows:
            if options["json"]:
                self.stdout.write(json.dumps(row, sort_keys=True))
            else:
                counts = " ".join(f"{key}={value}" for key, value in row.items() if key != "job")
                self.stdout.write(f"{row['job']}: {counts}")

    def _archive(self, tenant_id: int | None, task_id: object) -> dict[str, int | str]:
        if tenant_id is None or not task_id:
            raise CommandError("--job archive needs --tenant and --task-id")
        done = task_complete(tenant_id=tenant_id, task_id=str(task_id), actor=f"cli:{getpass.getuser()}")
        return {
            "job": "archive",
            "found": done.found,
            "archived": done.archived,
            "remaining": done.remaining,
            "states_archived": done.states_archived,
        }
