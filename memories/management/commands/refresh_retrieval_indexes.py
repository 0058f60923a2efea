"""Build the retrieval index of every owner with enough memories (the reads ask for the rest as they go)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError, CommandParser

from governance.models import Tenant
from memories.services.retrieval_index import retrieval_index_owners, retrieval_index_refresh


class Command(BaseCommand):
    help = (
        "Build or rebuild the retrieval index of every subject (and every tenant's shared rules) with enough "
        "active memories, printing how many owners and memories were indexed. Reads ask a worker for the "
        "indexes they find missing or behind (memgov.retrieval.refresh); this command does them all at once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", help="tenant slug; all tenants if omitted")

    def handle(self, *args: object, **options: object) -> None:
        tenant_id = None
        if options["tenant"]:
            tenant_id = Tenant.objects.filter(slug=options["tenant"]).values_list("pk", flat=True).first()
            if tenant_id is None:
                raise CommandError(f"no tenant {options['tenant']!r}")
        started = time.perf_counter()
        owners = retrieval_index_owners(tenant_id=tenant_id)
        memories = sum(retrieval_index_refresh(tenant_id=tenant, owner=owner) for tenant, owner in owners)
        seconds = time.perf_counter() - started
        self.stdout.write(f"indexed {memories} memories of {len(owners)} owners in {seconds:.1f} s")
