"""``manage.py bench_integrations``: MCP beside REST over real HTTP, and the framework adapters beside their
frameworks' SQLite implementations, from one run (evaluation/integrations_bench.py, adapters_bench.py)."""

from __future__ import annotations

import json
import logging
import platform
import time
from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from evaluation.integrations_bench import ROW_GROUPS, BenchTarget, ratios, served
from evaluation.read_bench import python_speed
from governance.models import Tenant
from governance.pipeline.base import Scope
from governance.services.tenancy import agent_key_create, agent_key_revoke, tenant_create
from governance.vocabulary import Level
from memories.services.records import NewMemory, memory_create

TENANT = "bench-integrations"
SEEDED = (
    "Prefers answers with tables",
    "Writes Python at work",
    "Prefers short answers in the morning",
    "Works on the dispatch-docs project",
    "Prefers metric units",
    "Reads English and Chinese",
)


class Command(BaseCommand):
    help = (
        "Serve config.asgi with uvicorn in a subprocess on the configured database (use a scratch one) and time "
        "memory_write and memory_context over MCP's streamable HTTP beside the same REST calls, alternating; "
        "MemgovSession beside the Agents SDK's SQLiteSession and MemgovSaver beside LangGraph's SqliteSaver; "
        "prints p50/p95, each row's ratio to its peer and the machine's speed probe."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--requests", type=int, default=200, help="timed calls per row")
        parser.add_argument("--warmup", type=int, default=20, help="untimed calls before the timed ones")
        parser.add_argument("--subjects", type=int, default=20, help="people the writes go to, in turn")
        parser.add_argument(
            "--sessions", type=int, default=5, help="adapter rows: sessions of 100 items, threads of 50 checkpoints"
        )
        parser.add_argument("--items", type=int, default=100, help="items per Agents SDK session")
        parser.add_argument("--checkpoints", type=int, default=50, help="checkpoints per LangGraph thread")
        parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")

    def handle(self, *args: object, **options: object) -> None:
        for name in ("httpx", "httpx2", "mcp"):  # one line per request would bury the table
            logging.getLogger(name).setLevel(logging.WARNING)
        requests, warmup = int(options["requests"]), int(options["warmup"])
        tenant = Tenant.objects.filter(slug=TENANT).first() or tenant_create(slug=TENANT, actor="bench")
        run = datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")
        agent, key = agent_key_create(tenant=tenant, name=f"bench-{run}", actor="bench")
        subjects = tuple(f"bench-{run}-{n}" for n in range(int(options["subjects"])))
        reader = f"bench-{run}-reader"
        for n in range(40):  # the context subject: enough memories that ranking and the budget do work
            memory_create(
                tenant_id=tenant.pk,
                new=NewMemory(
                    scope=Scope(Level.USER, user_id=reader),
                    type="user_preference",
                    content=f"{SEEDED[n % len(SEEDED)]} ({n})",
                    source_type="explicit_user_request",
                ),
                actor="bench",
            )
        speed_before = python_speed()
        started = time.monotonic()
        try:
            with served() as url:
                target = BenchTarget(
                    url,
                    key,
                    subjects,
                    reader,
                    requests,
                    warmup,
                    sessions=int(options["sessions"]),
                    items=int(options["items"]),
                    checkpoints=int(options["checkpoints"]),
                )
                rows = [row for group in ROW_GROUPS for row in group(target)]
        finally:
            agent_key_revoke(client=agent, actor="bench")
        figures = {
            "date": datetime.now(UTC).date().isoformat(),
            "database": connection.vendor,
            "python": platform.python_version(),
            "python_speed_us": round(min(speed_before, python_speed()), 2),
            "seconds": round(time.monotonic() - started, 1),
            "rows": [row.summary() for row in rows],
            "ratio_p50": ratios(rows),
        }
        self._table(figures)
        if options["json"]:
            self.stdout.write(json.dumps(figures))

    def _table(self, figures: dict) -> None:
        self.stdout.write(
            f"bench_integrations {figures['date']} on {figures['database']}, Python {figures['python']}, "
            f"speed probe {figures['python_speed_us']} µs (sum(range(1000)))"
        )
        self.stdout.write(f"{'row':<42} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8} {'p50 ×':>6}")
        for row in figures["rows"]:
            ratio = figures["ratio_p50"].get(row["row"])
            shown = f"{ratio:.2f}" if ratio is not None else ""
            self.stdout.write(
                f"{row['row']:<42} {row['requests']:>5} {row['p50_ms']:>8.2f} {row['p95_ms']:>8.2f} "
                f"{row['mean_ms']:>8.2f} {shown:>6}"
            )
