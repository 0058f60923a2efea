"""``manage.py bench_http``: the service call, the same call over HTTP through the production server with 1, 4
and 16 clients (server CPU per request beside the service's), and the floor, from one run
(evaluation/http_bench.py, evaluation/floor_bench.py)."""

from __future__ import annotations

import itertools
import json
import os
import platform
import statistics
import tempfile
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from evaluation.floor_bench import floor_figures
from evaluation.http_bench import SERVERS, http_row, http_table, production_server
from evaluation.read_bench import QUERIES, bench_seed, bench_tenants, python_speed, timed, user_id_for
from evaluation.scope_bench import WRITE_TEXTS
from governance.models import AgentClient
from governance.pipeline.base import Candidate, Scope
from governance.services.tenancy import agent_key_create, agent_key_revoke
from governance.vocabulary import Level, MemoryType, SourceType, Status
from memories.access import Caller
from memories.models import Memory
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from memories.services.write import memory_write

FIRST_INDEX = 95_000  # user indexes of this benchmark's subjects: apart from bench_read's and the scope bench's


def _clients(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CommandError(f"--clients takes numbers separated by commas, like 1,4,16 (got {text!r})") from None
    if not counts or min(counts) < 1:
        raise CommandError("--clients: each count must be at least 1")
    return counts


class Command(BaseCommand):
    help = (
        "Time memory.write and the context read as service calls, over HTTP through gunicorn (config.asgi, "
        "UvicornWorkers, --preload) with concurrent clients, and as a floor of plain sqlite3 + cryptography; "
        "prints the server's CPU per request beside the service's. Use a scratch database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--requests", type=int, default=600, help="timed calls per row")
        parser.add_argument("--warmup", type=int, default=60, help="untimed calls before each kind of call")
        parser.add_argument("--clients", default="1,4,16", help="concurrent HTTP clients, one row each")
        parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
        parser.add_argument(
            "--servers", default=",".join(SERVERS), help="asgi (the production command), sync (gunicorn sync, WSGI)"
        )
        parser.add_argument("--subjects", type=int, default=32, help="people the calls rotate over")
        parser.add_argument("--scope", type=int, default=30, help="memories seeded per person")
        parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")

    def handle(self, *args: object, **options: Any) -> None:
        requests, warmup = options["requests"], options["warmup"]
        if requests < 1 or warmup < 0 or options["subjects"] < 1 or options["scope"] < 0:
            raise CommandError("--requests and --subjects must be at least 1; --warmup and --scope at least 0")
        clients = _clients(options["clients"])
        servers = [kind.strip() for kind in options["servers"].split(",") if kind.strip()]
        if not servers or set(servers) - set(SERVERS):
            raise CommandError(f"--servers takes {', '.join(SERVERS)} separated by commas (got {options['servers']!r})")
        tenants, _ = bench_tenants(actor="bench")
        run = datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")
        earlier_runs = AgentClient.objects.filter(tenant=tenants[0], name__startswith="bench-http-").count()
        agent, key = agent_key_create(tenant=tenants[0], name=f"bench-http-{run}", actor="bench")
        # Fresh people each run, each with exactly --scope memories; even indexes are the agent's tenant's.
        first = FIRST_INDEX + 2 * earlier_runs * options["subjects"]
        bench_seed(
            tenants,
            first_user=first,
            last_user=first + 2 * options["subjects"],
            per_user=options["scope"],
            shared=False,
            sink=lambda _: None,
        )
        subjects = [user_id_for(first + 2 * n) for n in range(options["subjects"])]
        counter = itertools.count()
        speed_before = python_speed()

        def write_body(number: int) -> dict[str, Any]:
            n = next(counter)
            return {
                "type": "user_preference",
                "content": WRITE_TEXTS[n % len(WRITE_TEXTS)].format(n=f"{run}-{n}"),
                "scope": {"level": "user", "user_id": subjects[number % len(subjects)]},
                "source": {"source_type": "explicit_user_request"},
                "confidence": 0.9,
            }

        def read_body(number: int) -> dict[str, Any]:
            subject = subjects[number % len(subjects)]
            return {"scope": {"user_id": subject}, "query": QUERIES[number % len(QUERIES)], "top_k": 8}

        def write_service(number: int) -> object:
            body = write_body(number)
            return memory_write(
                tenant_id=tenants[0].pk,
                candidate=Candidate(
                    content=body["content"],
                    scope=Scope(Level.USER, user_id=body["scope"]["user_id"]),
                    source_type=SourceType.EXPLICIT_USER_REQUEST,
                    type=MemoryType.USER_PREFERENCE,
                    confidence=0.9,
                ),
                actor_label=f"agent:{agent.name}",
                agent=agent,
            )

        caller = Caller(tenant_id=tenants[0].pk, actor=f"agent:{agent.name}", agent=agent)

        def set_aside() -> None:
            """What the timed writes saved leaves the people's scopes (untimed): every row meets --scope."""
            written = Memory.objects.filter(tenant=tenants[0], created_by=caller.actor, status=Status.ACTIVE)
            written.update(status=Status.DELETED)

        def read_service(number: int) -> object:
            body = read_body(number)
            scope = ContextScope(user_id=body["scope"]["user_id"])
            request = ContextRequest(scope=scope, query=body["query"], top_k=8)
            return memory_context_build(caller=caller, request=request)

        service: dict[str, dict[str, float]] = {}
        for op, call in (("write", write_service), ("read", read_service)):
            wall, cpu = timed(call, requests=requests, warmup=warmup)
            service[op] = {"p50_ms": statistics.median(wall), "cpu_ms": statistics.fmean(cpu)}
            set_aside()
        self.stderr.write("service calls timed; the floor …")
        floor = floor_figures(subjects=subjects, scope=options["scope"], texts=WRITE_TEXTS, requests=requests)
        rows = []
        paths = {"write": ("/api/v1/memories/write", write_body), "read": ("/api/v1/memories/context", read_body)}
        try:
            for kind in servers:
                with (
                    tempfile.TemporaryDirectory(prefix="memgov-bench-probe-") as folder,
                    production_server(kind, workers=options["workers"], probe=Path(folder)) as (port, pid),
                ):
                    self.stderr.write(f"gunicorn ({kind}) with {options['workers']} workers is up; timing HTTP …")
                    for op, (path, body) in paths.items():

                        def request(number: int, path: str = path, body: Any = body) -> tuple[str, dict[str, Any]]:
                            return path, body(number)

                        for count in clients:
                            common = {"server": kind, "op": op, "port": port, "server_pid": pid, "key": key}
                            common |= {"probe": Path(folder)}  # each service call's CPU inside the server
                            if warmup:
                                http_row(**common, request=request, clients=count, requests=warmup, service_cpu_ms=1)
                            cpu_ms = service[op]["cpu_ms"]
                            row = http_row(
                                **common, request=request, clients=count, requests=requests, service_cpu_ms=cpu_ms
                            )
                            rows.append(row)
                            set_aside()
        finally:
            agent_key_revoke(client=agent, actor="bench")
        figures = {
            "date": datetime.now(UTC).date().isoformat(),
            "database": connection.vendor,
            "python": platform.python_version(),
            "python_speed_us": round(min(speed_before, python_speed()), 2),
            "cores": os.cpu_count(),
            "workers": options["workers"],
            "scope": options["scope"],
            "service": {op: {k: round(v, 3) for k, v in figures.items()} for op, figures in service.items()},
            "floor": {k: round(v, 3) for k, v in asdict(floor).items()},
            "governed_over_floor": {
                "write": round(service["write"]["p50_ms"] / floor.write_p50_ms, 2),
                "read": round(service["read"]["p50_ms"] / floor.read_p50_ms, 2),
            },
            "http": [
                {
                    **asdict(row),
                    "cpu_over_service": round(row.overhead, 2),
                    "cpu_over_served_service": round(row.served_overhead or 0, 2) or None,
                }
                for row in rows
            ],
        }
        self._print(figures, rows)
        if options["json"]:
            self.stdout.write(json.dumps(figures))

    def _print(self, figures: dict[str, Any], rows: list[Any]) -> None:
        service, floor, ratio = figures["service"], figures["floor"], figures["governed_over_floor"]
        self.stdout.write(
            f"bench_http {figures['date']} on {figures['database']}, Python {figures['python']}, "
            f"{figures['cores']} cores, speed probe {figures['python_speed_us']} µs (sum(range(1000))); "
            f"{figures['scope']} memories per person"
        )
        self.stdout.write(f"{'':<34}{'write p50 ms':>14}{'write CPU ms':>14}{'read p50 ms':>13}{'read CPU ms':>13}")
        for name, w, r in (
            ("service call (in process)", service["write"], service["read"]),
            ("floor (sqlite3 + cryptography)", {"p50_ms": floor["write_p50_ms"], "cpu_ms": floor["write_cpu_ms"]},
             {"p50_ms": floor["read_p50_ms"], "cpu_ms": floor["read_cpu_ms"]}),
        ):  # fmt: skip
            self.stdout.write(
                f"{name:<34}{w['p50_ms']:>14.3f}{w['cpu_ms']:>14.3f}{r['p50_ms']:>13.3f}{r['cpu_ms']:>13.3f}"
            )
        self.stdout.write(f"governed service / floor, p50: write {ratio['write']:.2f}×, read {ratio['read']:.2f}×")
        self.stdout.write(
            f"over HTTP on loopback, {figures['workers']} workers, --preload: asgi = gunicorn config.asgi on "
            "UvicornWorkers (serves /mcp/ too), sync = gunicorn config.wsgi on sync workers (pages and REST)"
        )
        for line in http_table(rows):
            self.stdout.write(line)
