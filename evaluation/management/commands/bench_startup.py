"""``manage.py bench_startup``: gunicorn's start-up time and memory with and without ``--preload``, from one
run (evaluation/startup_bench.py)."""

from __future__ import annotations

import logging
import platform
from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from evaluation.read_bench import python_speed
from evaluation.startup_bench import measure, table
from governance.models import Tenant
from governance.services.tenancy import agent_key_create, agent_key_revoke, tenant_create

TENANT = "bench-startup"


class Command(BaseCommand):
    help = (
        "Start gunicorn (config.asgi on UvicornWorkers) on the configured database (use a scratch one), with and "
        "without --preload, and print the time to its first answered write and the memory (PSS, RSS) of all "
        "its processes once every worker has served."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
        parser.add_argument("--repeat", type=int, default=2, help="starts of each kind, alternating")

    def handle(self, *args: object, workers: int, repeat: int, **options: object) -> None:
        logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request would bury the table
        if workers < 1 or repeat < 1:
            raise CommandError("--workers and --repeat must be at least 1")
        if not platform.system() == "Linux":
            raise CommandError("bench_startup reads /proc: it runs on Linux only")
        tenant = Tenant.objects.filter(slug=TENANT).first() or tenant_create(slug=TENANT, actor="bench")
        run = datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")
        agent, key = agent_key_create(tenant=tenant, name=f"bench-{run}", actor="bench")
        connection.close()  # the servers write to this database; SQLite's writer lock is not ours to hold
        self.stdout.write(
            f"bench_startup {datetime.now(UTC):%Y-%m-%d} on {connection.vendor}, Python {platform.python_version()}, "
            f"speed probe {python_speed():.2f} µs (sum(range(1000)))"
        )
        rows = []
        try:
            for attempt in range(repeat):
                for preload in (False, True):
                    prefix = f"bench-{run}-{attempt}-{int(preload)}"
                    rows.append(measure(key=key, subject_prefix=prefix, workers=workers, preload=preload))
        finally:
            agent_key_revoke(client=agent, actor="bench")
        self.stdout.write(table(rows))
