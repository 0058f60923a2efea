"""Benchmark the read path at scale, beside LangGraph's SqliteStore.search over the same records."""

from __future__ import annotations

import gc
import json
import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.utils import timezone

from evaluation.read_bench import (
    QUERIES,
    Record,
    bench_member,
    bench_reset,
    bench_row_count,
    bench_seed,
    bench_tenants,
    percentile,
    python_speed,
    timed,
    user_id_for,
)
from evaluation.read_bench_parts import read_parts
from evaluation.scope_bench import SCOPE_SIZES, parse_sizes, scope_reads, scope_table
from memories.access import Caller
from memories.embedding.embedders import current_embedder
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope


class Command(BaseCommand):
    help = (
        "Seed N memories (default 1,000,000 over 10,000 subjects in tenants bench-a and bench-b) on the "
        "configured database — use a scratch one — and print p50/p99 latency of memory_context_build for one "
        "subject with ~100 memories at the small size (default 10,000 rows) and at the full size, beside "
        "LangGraph's SqliteStore.search (namespace (tenant, subject), the same query) over the same records."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--total", type=int, default=1_000_000, help="rows at the full size")
        parser.add_argument("--users", type=int, default=10_000, help="subjects at the full size")
        parser.add_argument("--small", type=int, default=10_000, help="rows at the first measurement")
        parser.add_argument("--requests", type=int, default=300, help="timed calls per measurement")
        parser.add_argument("--warmup", type=int, default=20, help="untimed calls before each measurement")
        parser.add_argument("--top-k", type=int, default=8)
        parser.add_argument("--token-budget", type=int, default=1200)
        parser.add_argument("--no-langgraph", action="store_true", help="skip the LangGraph comparison")
        parser.add_argument(
            "--langgraph-db", default="", help="the LangGraph SQLite file (default: var/bench-langgraph.sqlite3)"
        )
        parser.add_argument("--reset", action="store_true", help="delete earlier bench memories first")
        parser.add_argument(
            "--reuse",
            action="store_true",
            help="measure the rows an earlier run seeded (and its LangGraph file) without seeding again",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object last")
        parser.add_argument(
            "--scope-sizes",
            default="",
            help="instead: read p50 against the memories in the subject's own scope (e.g. "
            + ",".join(str(size) for size in SCOPE_SIZES)
            + ")",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["scope_sizes"]:
            self._scope_axis(options["scope_sizes"], requests=options["requests"])
            return
        total, users = options["total"], options["users"]
        if users < 1 or total < users:
            raise CommandError("--users must be at least 1 and --total at least --users")
        if options["requests"] < 1:
            raise CommandError("--requests must be at least 1")
        per_user = total // users
        small = min(max(options["small"], per_user), total)
        stages = sorted({small, total})

        tenants, agent = bench_tenants(actor="bench")
        existing = bench_row_count(tenants)
        if options["reuse"]:
            if not existing:
                raise CommandError("--reuse: there are no bench memories to measure; seed them first")
            stages = []
        elif existing and not options["reset"]:
            raise CommandError(
                f"the bench tenants already hold {existing} memories: run with --reset (on a scratch database)"
            )
        elif existing:
            self.stderr.write(f"deleting {existing} earlier bench memories …")
            bench_reset(tenants)

        store = None
        if not options["no_langgraph"]:
            store = _langgraph_store(options["langgraph_db"], keep=options["reuse"])

        def sink(records: list[Record]) -> None:
            if store is not None:
                _langgraph_put(store, records)

        caller = Caller(tenant_id=tenants[0].pk, actor=f"agent:{agent.name}", agent=agent)
        subject = user_id_for(0)
        bench_member(tenants[0], subject, actor="bench")

        def request_for(number: int) -> ContextRequest:
            return ContextRequest(
                scope=ContextScope(user_id=subject, project="dispatch-docs", session_id="s0"),
                query=QUERIES[number % len(QUERIES)],
                top_k=options["top_k"],
                token_budget=options["token_budget"],
            )

        def context_call(number: int) -> object:
            return memory_context_build(caller=caller, request=request_for(number))

        rows: list[dict[str, Any]] = []
        seeded_users = 0
        for stage in stages or [existing]:
            started = time.monotonic()
            if stages:
                stage_users = max(1, stage // per_user)
                bench_seed(
                    tenants,
                    first_user=seeded_users,
                    last_user=stage_users,
                    per_user=per_user,
                    shared=seeded_users == 0,
                    sink=sink,
                    progress=lambda n: self.stderr.write(f"  seeded {n} rows", ending="\r"),
                )
                seeded_users = stage_users
            seconds = time.monotonic() - started
            count = bench_row_count(tenants)
            self.stderr.write(f"{count} rows ({seconds:.0f} s to seed); timing {options['requests']} calls …")
            context_call(0)  # jieba's dictionary loads on the first query
            gc.freeze()  # as config/wsgi.py does once the app is loaded: long-lived objects leave GC scans
            memgov, memgov_cpu = timed(context_call, requests=options["requests"], warmup=options["warmup"])
            items = len(context_call(0).items)  # type: ignore[attr-defined]
            row: dict[str, Any] = {"rows": count, "seed_seconds": round(seconds, 1), "items": items}
            row.update(_summary("memgov", memgov))
            row.update(_summary("memgov_cpu", memgov_cpu))
            if store is not None:
                lang, _ = timed(
                    lambda n: store.search(
                        (tenants[0].slug, subject), query=QUERIES[n % len(QUERIES)], limit=options["top_k"]
                    ),
                    requests=options["requests"],
                    warmup=options["warmup"],
                )
                row.update(_summary("langgraph", lang))
            rows.append(row)

        parts = {
            name: _summary("step", samples)
            for name, samples in read_parts(
                caller=caller,
                request_for=request_for,
                now=timezone.now(),
                requests=options["requests"],
                warmup=options["warmup"],
            ).items()
        }
        self._print_table(rows, subject=subject, per_user=per_user, langgraph=store is not None)
        self._print_parts(parts, rows[-1])
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {
                        "database": connection.vendor,
                        "subject": subject,
                        "per_user": per_user,
                        "requests": options["requests"],
                        "top_k": options["top_k"],
                        "token_budget": options["token_budget"],
                        "python_speed_us": round(python_speed(), 2),
                        "embedder": getattr(current_embedder(), "name", "none"),
                        "stages": rows,
                        "parts": parts,
                    }
                )
            )

    def _scope_axis(self, scope_sizes: str, *, requests: int) -> None:
        try:
            sizes = parse_sizes(scope_sizes)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"database: {connection.vendor}; {requests} timed reads per size; "
            f"this machine runs sum(range(1000)) in {python_speed():.1f} µs"
        )
        try:
            rows = scope_reads(sizes=sizes, requests=requests, log=self.stderr.write)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write("\n".join(scope_table(rows, what="memory_context_build")))

    def _print_table(self, rows: list[dict[str, Any]], *, subject: str, per_user: int, langgraph: bool) -> None:
        self.stdout.write(
            f"read path on {connection.vendor}: memory_context_build for {subject} (~{per_user} memories),"
            f" milliseconds; embedder {getattr(current_embedder(), 'name', 'none')};"
            f" this machine runs sum(range(1000)) in {python_speed():.1f} µs"
        )
        header = "| rows | memgov p50 | memgov p99 | memgov CPU p50 | CPU p99 |"
        rule = "| ---: | ---: | ---: | ---: | ---: |"
        if langgraph:
            header += " LangGraph SqliteStore.search p50 | p99 |"
            rule += " ---: | ---: |"
        self.stdout.write(header)
        self.stdout.write(rule)
        for row in rows:
            line = (
                f"| {row['rows']:,} | {row['memgov_p50']:.2f} | {row['memgov_p99']:.2f} |"
                f" {row['memgov_cpu_p50']:.2f} | {row['memgov_cpu_p99']:.2f} |"
            )
            if langgraph:
                line += f" {row['langgraph_p50']:.2f} | {row['langgraph_p99']:.2f} |"
            self.stdout.write(line)

    def _print_parts(self, parts: dict[str, dict[str, float]], whole: dict[str, Any]) -> None:
        self.stdout.write(f"each step of the read timed alone, at {whole['rows']:,} rows, milliseconds")
        self.stdout.write("| step | p50 | p99 |")
        self.stdout.write("| --- | ---: | ---: |")
        for name, figures in parts.items():
            self.stdout.write(f"| {name} | {figures['step_p50']:.2f} | {figures['step_p99']:.2f} |")
        beside = (("whole read (memory_context_build)", "memgov"), ("LangGraph SqliteStore.search", "langgraph"))
        for name, prefix in beside:
            if f"{prefix}_p50" in whole:
                self.stdout.write(f"| {name} | {whole[f'{prefix}_p50']:.2f} | {whole[f'{prefix}_p99']:.2f} |")


def _summary(prefix: str, samples: list[float]) -> dict[str, float]:
    return {
        f"{prefix}_p50": round(percentile(samples, 0.50), 3),
        f"{prefix}_p99": round(percentile(samples, 0.99), 3),
        f"{prefix}_mean": round(statistics.fmean(samples), 3),
    }


def _langgraph_store(path_text: str, *, keep: bool) -> Any:
    from langgraph.store.sqlite import SqliteStore

    path = Path(path_text or Path(settings.VAR_DIR) / "bench-langgraph.sqlite3")
    if keep and not path.exists():
        raise CommandError(f"--reuse: {path} does not exist; seed again or pass --no-langgraph")
    if not keep:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    # As LangGraph's own from_conn_string opens it.
    store = SqliteStore(sqlite3.connect(str(path), check_same_thread=False, isolation_level=None))
    store.setup()
    return store


def _langgraph_put(store: Any, records: list[Record]) -> None:
    from langgraph.store.base import PutOp

    store.batch(
        [
            PutOp(
                namespace=(r.tenant_slug, r.namespace_user),
                key=str(r.values["id"]),
                value={
                    "content": r.content,
                    "type": str(r.values["type"]),
                    "level": str(r.values["level"]),
                    "status": str(r.values.get("status", "active")),
                    "project": r.values.get("project", ""),
                    "session_id": r.values.get("session_id", ""),
                },
            )
            for r in records
        ]
    )
