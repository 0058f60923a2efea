"""Cost against the size of one subject's scope: ``bench_write --scope-sizes`` and ``bench_read --scope-sizes``.

A write compares its candidate with the memories of its scope, and a read ranks every memory the subject may
see, so their cost can grow with what one person has accumulated, whatever the table's total. For each size
N, a few subjects are seeded with N sealed memories each (``read_bench``'s realistic rows: both languages,
a mix of types, scopes and statuses), then:

- **writes**: ``memory_write`` of a new preference, rotating over those subjects; each saved memory is set
  aside after its write (untimed) so the scope stays at N. *Warm* is a long-running worker; *cold* clears
  the per-process cache of parsed aspects before every write, as a worker does after a restart. The sizes
  take turns in batches (:data:`ROUNDS` rounds), so a change in the machine's load falls on all of them.
- **reads**: ``memory_context_build`` for one of them (top_k 8, a rotating zh/en query).
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from evaluation.read_bench import QUERIES, bench_seed, bench_tenants, percentile, timed, user_id_for
from governance.models import Tenant
from governance.pipeline import dedup
from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType, Status
from memories.access import Caller
from memories.models import Memory
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from memories.services.retrieval_index import retrieval_index_refresh
from memories.services.write import memory_write

SCOPE_SIZES = (1, 30, 100, 300, 1000)
SUBJECTS_PER_SIZE = 5
SEEDED_BY = "bench"  # read_bench's rows' created_by
FIRST_INDEX = 90_000  # user indexes of the scope subjects: apart from bench_read's u00000…
WRITE_TEXTS = (
    "Remember: I like short answers with a TL;DR line first ({n}).",
    "记住我喜欢回答里多用表格，第 {n} 条。",
    "Prefers TypeScript examples over JavaScript, variant {n}.",
    "以后代码注释用英文写，版本 {n}。",
)


@dataclass(frozen=True)
class ScopeRow:
    size: int
    p50: float
    p99: float
    cold_p50: float | None = None
    cold_p99: float | None = None
    indexed_p50: float | None = None  # reads: the same reads once the subjects' retrieval indexes are built
    indexed_p99: float | None = None


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise ValueError(f"--scope-sizes takes numbers separated by commas, like 1,30,100 (got {text!r})") from None
    if not sizes or sizes[0] < 1:
        raise ValueError("--scope-sizes: each size must be at least 1")
    return sizes


def _seed(tenants: list[Tenant], size: int, slot: int) -> list[str]:
    """SUBJECTS_PER_SIZE subjects of the first tenant (even indexes), each with ``size`` memories. A database
    where they already hold memories (an earlier run) would measure other sizes than asked: refused."""
    indexes = [FIRST_INDEX + 2 * (slot * SUBJECTS_PER_SIZE + k) for k in range(SUBJECTS_PER_SIZE)]
    subjects = [user_id_for(index) for index in indexes]
    if Memory.objects.filter(tenant=tenants[0], user_id__in=subjects).exists():
        raise ValueError(
            "--scope-sizes: this database already holds the subjects of an earlier run, so their scopes would "
            "not be the sizes asked for; run it on a fresh scratch database"
        )
    for index in indexes:
        bench_seed(tenants, first_user=index, last_user=index + 1, per_user=size, shared=False, sink=lambda _: None)
    return subjects


def _stats(samples: list[float]) -> tuple[float, float]:
    return statistics.median(samples), percentile(samples, 0.99)


class _ScopeWriter:
    """Timed writes into the scopes of some subjects, each saved memory set aside afterwards (untimed)."""

    def __init__(self, *, tenant_id: int, subjects: list[str], counter: Iterator[int]) -> None:
        self.tenant_id, self.subjects, self.counter = tenant_id, subjects, counter

    def _write(self, number: int) -> Memory | None:
        n = next(self.counter)
        result = memory_write(
            tenant_id=self.tenant_id,
            candidate=Candidate(
                content=WRITE_TEXTS[n % len(WRITE_TEXTS)].format(n=n),
                scope=Scope(Level.USER, user_id=self.subjects[number % len(self.subjects)]),
                source_type=SourceType.EXPLICIT_USER_REQUEST,
                type=MemoryType.USER_PREFERENCE,
                confidence=0.9,
            ),
            actor_label="agent:bench",
        )
        return result.memory

    def run(self, writes: int, *, cold: bool) -> list[float]:
        samples: list[float] = []
        for number in range(writes):
            if cold:
                dedup._aspect_cache.clear()  # what a restarted worker has: nothing parsed yet
            started = time.perf_counter()
            saved = self._write(number)
            samples.append((time.perf_counter() - started) * 1000)
            if saved is not None and saved.created_by != SEEDED_BY:
                # A new memory (not a seeded one superseded in place): set it aside, the scope stays at N.
                Memory.objects.filter(pk=saved.pk).update(status=Status.DELETED)
        return samples


# Timed writes per size and round: the sizes take turns, ROUNDS times, so that whatever else the machine
# does during the run falls on every size alike rather than on whichever size ran at that moment.
ROUNDS = 8


def timed_batch(writes: int) -> int:
    """Writes per size and round: ``writes`` spread over :data:`ROUNDS` rounds (at least one a round)."""
    return max(writes // ROUNDS, 1)


def scope_writes(*, sizes: Sequence[int], writes: int, log: Callable[[str], object]) -> list[ScopeRow]:
    tenants, _ = bench_tenants(actor="bench")
    counter = itertools.count()
    writers = []
    for slot, size in enumerate(sizes):
        log(f"seeding {SUBJECTS_PER_SIZE} subjects with {size} memories each …")
        writer = _ScopeWriter(tenant_id=tenants[0].pk, subjects=_seed(tenants, size, slot), counter=counter)
        writer.run(max(writes // ROUNDS, 5), cold=False)  # warm: this scope's aspects parsed, its keys loaded
        writers.append(writer)
    warm: list[list[float]] = [[] for _ in sizes]
    cold: list[list[float]] = [[] for _ in sizes]
    batch = timed_batch(writes)
    for _ in range(ROUNDS):
        for samples, writer in zip(warm, writers, strict=True):
            samples.extend(writer.run(batch, cold=False))
        for samples, writer in zip(cold, writers, strict=True):
            samples.extend(writer.run(batch, cold=True))
    return [ScopeRow(size, *_stats(w), *_stats(c)) for size, w, c in zip(sizes, warm, cold, strict=True)]


def scope_reads(*, sizes: Sequence[int], requests: int, log: Callable[[str], object]) -> list[ScopeRow]:
    tenants, agent = bench_tenants(actor="bench")
    caller = Caller(tenant_id=tenants[0].pk, actor=f"agent:{agent.name}", agent=agent)
    rows = []
    for slot, size in enumerate(sizes):
        log(f"seeding {SUBJECTS_PER_SIZE} subjects with {size} memories each …")
        subjects = _seed(tenants, size, slot)

        def read(number: int, subjects: list[str] = subjects) -> object:
            return memory_context_build(
                caller=caller,
                request=ContextRequest(
                    scope=ContextScope(user_id=subjects[number % len(subjects)]),
                    query=QUERIES[number % len(QUERIES)],
                    top_k=8,
                ),
            )

        wall, _ = timed(read, requests=requests, warmup=20)
        for subject in subjects:
            retrieval_index_refresh(tenant_id=tenants[0].pk, owner=subject)
        indexed, _ = timed(read, requests=requests, warmup=20)
        rows.append(ScopeRow(size, *_stats(wall), indexed_p50=_stats(indexed)[0], indexed_p99=_stats(indexed)[1]))
    return rows


def scope_table(rows: Sequence[ScopeRow], *, what: str) -> list[str]:
    """The table, and each size's p50 against the smallest (the target: ≤ 1.5× at 300)."""
    cold = rows and rows[0].cold_p50 is not None
    indexed = rows and rows[0].indexed_p50 is not None
    header = f"{what} against the subject's scope size: p50 / p99 ms" + (" (warm, then cold)" if cold else "")
    if indexed:
        header += " (no retrieval index, then indexed: memories under 40 get none)"
    lines = [
        header,
        f"{'memories in scope':>18} {'p50':>8} {'p99':>8}"
        + (f" {'cold p50':>9} {'cold p99':>9}" if cold else "")
        + (f" {'idx p50':>9} {'idx p99':>9}" if indexed else ""),
    ]
    for row in rows:
        line = f"{row.size:>18,} {row.p50:8.3f} {row.p99:8.3f}"
        if cold:
            line += f" {row.cold_p50:9.3f} {row.cold_p99:9.3f}"
        if indexed:
            line += f" {row.indexed_p50:9.3f} {row.indexed_p99:9.3f}"
        lines.append(line)
    if len(rows) > 1:
        base = rows[0]
        for row in rows[1:]:
            ratio = f"{row.p50 / base.p50:.2f}×"
            if cold and base.cold_p50:
                ratio += f" warm, {row.cold_p50 / base.cold_p50:.2f}× cold"  # type: ignore[operator]
            if indexed and base.indexed_p50:
                ratio += f"; indexed {row.indexed_p50 / base.indexed_p50:.2f}×"  # type: ignore[operator]
            lines.append(f"p50 at {row.size:,} / at {base.size:,}: {ratio}")
    return lines
