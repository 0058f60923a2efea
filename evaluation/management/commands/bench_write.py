"""Benchmark of the write path: the whole pipeline beside the cost of its necessary parts."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.test import Client, override_settings
from django.utils import timezone

from audit.events import Event
from audit.services import audit_append, audit_fields, audit_record
from evaluation.durability import commit_durability, set_durability
from evaluation.read_bench import python_speed
from evaluation.scope_bench import ROUNDS, SCOPE_SIZES, parse_sizes, scope_table, scope_writes, timed_batch
from governance.pipeline import run_pipeline
from governance.pipeline.base import Candidate, ExistingMemory, Scope, WriteContext
from governance.recognizers import detect_sensitivity
from governance.services.tenancy import agent_key_create, tenant_create
from governance.vocabulary import Level, MemoryType, SourceType
from memories.fingerprints import content_fingerprint
from memories.models import Memory
from memories.services.records import NewMemory, memory_create
from memories.services.write import actor_for_write, memory_write
from memories.write_selectors import existing_in_scope, write_facts
from vault.datakeys import data_key_for
from vault.envelope import associated_data, seal

TEXTS = [
    "Remember: I like short answers with a TL;DR line first ({n}).",
    "记住我喜欢回答里多用表格，第 {n} 条。",
    "Prefers TypeScript examples over JavaScript, variant {n}.",
    "以后代码注释用英文写，版本 {n}。",
]


SUBJECTS = 500  # the subjects the timed writes rotate over


def _percentile(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def _timed(fn: Callable[[int], Any], n: int) -> list[float]:
    samples = []
    for i in range(n):
        start = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


class Command(BaseCommand):
    help = "Measure writes/s and p50/p99 of memory.write (service and HTTP) against its necessary parts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--writes", type=int, default=2000, help="timed writes per measurement")
        parser.add_argument("--sizes", default="10000,100000", help="stored memories to compare at")
        parser.add_argument(
            "--scope-sizes",
            default="",
            help="instead: write p50 against the memories in the subject's own scope, warm and cold (e.g. "
            + ",".join(str(size) for size in SCOPE_SIZES)
            + ")",
        )
        parser.add_argument(
            "--durability",
            default="default",
            help="commits: default (as configured), flushed (each waits for the disk) or relaxed "
            "(evaluation/durability.py); compare databases at the same one",
        )

    def handle(
        self, *args: object, writes: int, sizes: str, scope_sizes: str, durability: str, **options: object
    ) -> None:
        try:
            set_durability(durability)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if scope_sizes:
            self._scope_axis(writes=writes, scope_sizes=scope_sizes)
            return
        with override_settings(ALLOWED_HOSTS=["testserver"]):
            self._run(writes=writes, sizes=sizes)

    def _scope_axis(self, *, writes: int, scope_sizes: str) -> None:
        try:
            chosen = parse_sizes(scope_sizes)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"database: {connection.vendor}, {commit_durability()}; "
            f"{ROUNDS * timed_batch(writes)} timed writes per cell ({ROUNDS} rounds); "
            f"this machine runs sum(range(1000)) in {python_speed():.1f} µs"
        )
        try:
            rows = scope_writes(sizes=chosen, writes=writes, log=self.stderr.write)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write("\n".join(scope_table(rows, what="memory_write")))

    def _run(self, *, writes: int, sizes: str) -> None:
        self.stdout.write(
            f"database: {connection.vendor}, {commit_durability()}; {writes} timed writes per row; "
            f"this machine runs sum(range(1000)) in {python_speed():.1f} µs"
        )
        slug = f"bench-{int(time.time())}"
        tenant = tenant_create(slug=slug, actor="bench_write")
        _, key = agent_key_create(tenant=tenant, name="bench", actor="bench_write")
        rows: list[tuple[str, list[float]]] = []
        counter = iter(range(10**9))
        # Each size is measured with its own 500 subjects, each of whom has written once: a write
        # reads its subject's scope, so every size starts from scopes of the same size.
        subjects = ["first"]

        def candidate(i: int) -> Candidate:
            n = next(counter)
            return Candidate(
                content=TEXTS[n % len(TEXTS)].format(n=n),
                scope=Scope(Level.USER, user_id=f"user-{subjects[0]}-{n % SUBJECTS}"),
                source_type=SourceType.EXPLICIT_USER_REQUEST,
                type=MemoryType.USER_PREFERENCE,
                confidence=0.9,
            )

        def service_write(i: int) -> None:
            memory_write(tenant_id=tenant.pk, candidate=candidate(i), actor_label="agent:bench")

        # The test client talks to this process, as "testserver": the deployment's ALLOWED_HOSTS don't apply.
        client = Client()

        def http_write(i: int) -> None:
            c = candidate(i)
            response = client.post(
                "/api/v1/memories/write",
                {
                    "type": c.type.value,
                    "content": c.content,
                    "scope": {"level": "user", "user_id": c.scope.user_id},
                    "source": {"source_type": c.source_type.value},
                    "confidence": 0.9,
                },
                content_type="application/json",
                headers={"authorization": f"Bearer {key}"},
            )
            if response.status_code != 200:
                raise CommandError(f"the HTTP write answered {response.status_code}: {response.content[:300]!r}")

        def detect(i: int) -> None:
            detect_sensitivity(TEXTS[i % len(TEXTS)].format(n=i))

        key_id, data_key = data_key_for(tenant_id=tenant.pk, owner="user-1")

        def aes(i: int) -> None:
            seal(
                TEXTS[i % len(TEXTS)].format(n=i),
                key_id=key_id,
                key=data_key,
                aad=associated_data(model="memories.memory", tenant_id=tenant.pk, record_id=str(i), field="content"),
            )

        def insert_and_audit(i: int) -> None:
            with transaction.atomic():
                memory = memory_create(
                    tenant_id=tenant.pk,
                    new=NewMemory(
                        scope=Scope(Level.USER, user_id=f"user-first-{i % SUBJECTS}"),
                        type="user_preference",
                        content=TEXTS[i % len(TEXTS)].format(n=i),
                        source_type="explicit_user_request",
                    ),
                    actor="bench",
                    audit=False,
                )
                audit_record(tenant_id=tenant.pk, event=Event.MEMORY_WRITE_APPROVED, actor="bench", memory_id=memory.pk)

        def store_as_a_save_does(i: int) -> None:
            """What a saved write stores, decided elsewhere: the record (its own first version), the
            subject watermark, and the three events of a save, in one transaction."""
            with transaction.atomic():
                memory = memory_create(
                    tenant_id=tenant.pk,
                    new=NewMemory(
                        scope=Scope(Level.USER, user_id=f"user-first-{i % SUBJECTS}"),
                        type="user_preference",
                        content=TEXTS[i % len(TEXTS)].format(n=i),
                        source_type="explicit_user_request",
                    ),
                    actor="bench",
                    audit=False,
                )
                events = (Event.MEMORY_CANDIDATE_DETECTED, Event.MEMORY_WRITE_REQUESTED, Event.MEMORY_WRITE_APPROVED)
                audit_append(
                    [audit_fields(tenant_id=tenant.pk, event=e, actor="bench", memory_id=memory.pk) for e in events]
                )

        def _existing(c: Candidate) -> tuple[ExistingMemory, ...]:
            return existing_in_scope(
                tenant_id=tenant.pk,
                scope=c.scope,
                now=timezone.now(),
                fingerprint=content_fingerprint(tenant_id=tenant.pk, content=c.content),
                aspect_names=c.aspects.keys(),
            )

        def read_what_it_needs(i: int) -> None:
            """The two statements a write runs before deciding: policy, role and consent; its scope's memories."""
            c = candidate(i)
            write_facts(tenant_id=tenant.pk, person=c.scope.user_id, subject=c.scope.user_id, session_id="")
            _existing(c)

        deciding: list[float] = []  # run_pipeline alone; decide() times it, without the statements before

        def decide(i: int) -> None:
            """The pipeline alone (classification … TTL) on what those statements returned: no database."""
            c = candidate(i)
            facts = write_facts(tenant_id=tenant.pk, person=c.scope.user_id, subject=c.scope.user_id, session_id="")
            existing = _existing(c)
            started = time.perf_counter()
            run_pipeline(
                WriteContext(
                    candidate=c,
                    actor=actor_for_write(tenant_id=tenant.pk, scope=c.scope, on_behalf_of="", facts=facts),
                    policy=facts.policy,
                    now=timezone.now(),
                    fingerprint=content_fingerprint(tenant_id=tenant.pk, content=c.content),
                    existing=existing,
                )
            )
            deciding.append((time.perf_counter() - started) * 1000)

        # Steady state: every subject of the run has written before, so its data key exists and is
        # cached. (A subject's first write also creates its key: a one-time cost, timed separately.)
        first_writes = _timed(service_write, SUBJECTS)
        gc.freeze()  # as config/wsgi.py does once the app is loaded: start-up objects leave GC scans
        for warm in (http_write, detect, aes):
            for i in range(20):
                warm(i)

        for size in [int(s) for s in sizes.split(",") if s]:
            self._grow_to(tenant.pk, size)
            subjects[0] = str(size)
            _timed(service_write, SUBJECTS)  # their first writes (keys created), untimed
            service = _timed(service_write, writes)
            rows.append((f"pipeline via service @ {size:,} stored", service))
            rows.append((f"pipeline via HTTP    @ {size:,} stored", _timed(http_write, writes)))
        parts = {
            "sensitivity detection": _timed(detect, writes),
            "AES-GCM seal": _timed(aes, writes),
            "record insert + audit append": _timed(insert_and_audit, writes),
        }
        rows.extend(parts.items())
        rows.append(("(all a save stores: 2 rows + 3 events)", _timed(store_as_a_save_does, writes)))
        rows.append(("(the 2 reads before deciding)", _timed(read_what_it_needs, writes)))
        _timed(decide, writes)
        rows.append(("(deciding: run_pipeline alone)", deciding))
        rows.append((f"first write of a new subject (x{SUBJECTS})", first_writes))

        self.stdout.write(f"{'measurement':42} {'p50 ms':>8} {'p99 ms':>8} {'ops/s':>8}")
        for name, samples in rows:
            self.stdout.write(
                f"{name:42} {statistics.median(samples):8.3f} {_percentile(samples, 99):8.3f} "
                f"{1000 / statistics.mean(samples):8.0f}"
            )
        parts_p50 = sum(statistics.median(s) for s in parts.values())
        pipeline_p50 = statistics.median(rows[0][1])
        self.stdout.write(f"sum of parts p50: {parts_p50:.3f} ms; pipeline/parts ratio: {pipeline_p50 / parts_p50:.2f}")
        # Everything a saved write does, step by step: what is left over is the pipeline's own overhead.
        steps_p50 = sum(statistics.median(samples) for name, samples in rows if name.startswith("("))
        self.stdout.write(
            f"sum of the steps p50 (2 reads + deciding + all a save stores): {steps_p50:.3f} ms; "
            f"pipeline/steps ratio: {pipeline_p50 / steps_p50:.2f}"
        )
        self.stdout.write(f"(bench tenant {slug} left in the database; it holds only synthetic data)")

    def _grow_to(self, tenant_id: int, size: int) -> None:
        """Bulk-insert synthetic memories (sealed for real) until the tenant holds ``size``."""

        have = Memory.objects.filter(tenant_id=tenant_id).count()
        batch: list[Memory] = []
        for n in range(have, size):
            user_id = f"bulk-{n % 10_000}"
            memory = Memory(
                tenant_id=tenant_id,
                level="user",
                user_id=user_id,
                type="user_preference",
                source_type="explicit_user_request",
                created_by="bench",
                fingerprint=content_fingerprint(tenant_id=tenant_id, content=f"bulk {n}"),
            )
            memory.content = f"Synthetic preference number {n}"
            batch.append(memory)
            if len(batch) == 5000:
                # batch_size: PostgreSQL takes at most 65,535 parameters a statement (~30 a row here).
                Memory.objects.bulk_create(batch, batch_size=1000)
                batch = []
        if batch:
            Memory.objects.bulk_create(batch, batch_size=1000)
        if connection.vendor == "sqlite":
            # The bulk load left a write-ahead log of tens of thousands of pages, which every read
            # looks through until it is copied back; a server reaches steady state with a short one.
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
