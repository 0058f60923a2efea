"""Embed every readable memory with the current embedder, printing progress after each batch."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from governance.models import Tenant
from memories.lifecycle.base import DEFAULT_BATCH_SIZE
from memories.lifecycle.reembed import reembed_progress, reembed_run


class Command(BaseCommand):
    help = (
        "Give every readable memory a vector of the current embedder (MEMGOV_EMBEDDER), batch after batch, "
        "printing what is embedded and what is left; with MEMGOV_EMBEDDER=none, remove the vectors. "
        "--status only prints the progress. The same job runs on the Celery beat (memgov.lifecycle.reembed)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", help="tenant slug; all tenants if omitted")
        parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE)
        parser.add_argument("--max-batches", type=int, default=0, help="stop after this many (0: until done)")
        parser.add_argument("--status", action="store_true", help="print the progress and do nothing")
        parser.add_argument("--json", action="store_true", help="one JSON object per line")

    def handle(self, *args: object, **options: object) -> None:
        batch_size, max_batches = int(options["batch_size"]), int(options["max_batches"])
        if batch_size < 1 or max_batches < 0:
            raise CommandError("--batch-size must be at least 1 and --max-batches at least 0")
        tenant_id = None
        if options["tenant"]:
            tenant_id = Tenant.objects.filter(slug=options["tenant"]).values_list("pk", flat=True).first()
            if tenant_id is None:
                raise CommandError(f"no tenant {options['tenant']!r}")
        self._print(options, batch=0, counts={}, tenant_id=tenant_id)
        batches = 0
        while not options["status"] and (max_batches == 0 or batches < max_batches):
            result = reembed_run(tenant_id=tenant_id, batch_size=batch_size)
            batches += 1
            self._print(options, batch=batches, counts=dict(result.counts), tenant_id=tenant_id)
            if not result.has_more or result["unavailable"]:
                break

    def _print(self, options: dict, *, batch: int, counts: dict, tenant_id: int | None = None) -> None:
        progress = reembed_progress(tenant_id=tenant_id)
        row = {"batch": batch, **counts, **progress.__dict__}
        if options["json"]:
            self.stdout.write(json.dumps(row, sort_keys=True))
        else:
            done = " ".join(f"{key}={value}" for key, value in sorted(counts.items()))
            self.stdout.write(
                f"batch {batch}: {done or 'status'} | model {progress.model or 'none'}: {progress.embedded} embedded,"
                f" {progress.remaining} remaining, {progress.stale} of another model"
            )
