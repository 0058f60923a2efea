"""Benchmark of sessions: appends, state at any event, forks, the context projection and storage, beside the
OpenAI Agents SDK's SQLiteSession on the same items — with the issue's four targets judged at the end."""

from __future__ import annotations

import random
import statistics
import time
from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from conversations.models import Event
from conversations.selectors.context import session_context_build
from conversations.selectors.events import branch_events, event_visible_to
from conversations.selectors.sessions import session_get
from conversations.selectors.state import session_state_at
from conversations.services.compaction import session_compact
from conversations.services.events import session_events_append
from conversations.services.sessions import session_create, session_fork
from evaluation.read_bench import python_speed
from evaluation.sessions_bench import AgentsSdkPeer, fill, history_bytes, item, new_event, percentile, timed
from governance.services.tenancy import tenant_create


def _row(label: str, samples: list[float], *, events_per_call: int = 1) -> str:
    per_second = events_per_call * len(samples) / (sum(samples) / 1000) if samples else 0.0
    return f"{label:<52} p50 {percentile(samples, 0.5):8.3f} ms  p99 {percentile(samples, 0.99):8.3f} ms" + (
        f"  {per_second:9.0f} events/s" if events_per_call else ""
    )


class Command(BaseCommand):
    help = "Measure session appends, time travel, forks, the context projection and storage (and SQLiteSession's)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--appends", type=int, default=1000, help="timed single-event appends")
        parser.add_argument("--batches", type=int, default=100, help="timed appends of 20 events")
        parser.add_argument("--events", type=int, default=10_000, help="the long session's length")
        parser.add_argument("--reads", type=int, default=200, help="timed state rebuilds, forks and projections")

    def handle(self, *args: object, appends: int, batches: int, events: int, reads: int, **options: object) -> None:
        self.out = self.stdout.write
        self.out(
            f"bench_sessions on {connection.vendor}, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
            f"this machine runs sum(range(1000)) in {python_speed():.1f} µs"
        )
        tenant = tenant_create(slug=f"bench-sessions-{int(time.time())}", actor="bench_sessions")
        self.tenant_id = tenant.pk
        peer = AgentsSdkPeer()
        try:
            ratio = self._appends(peer, appends=appends, batches=batches)
        finally:
            peer.close()
        self._long_session(events=events, reads=reads, append_ratio=ratio)

    def _session(self, user: str = "alice"):
        return session_create(tenant_id=self.tenant_id, user_id=user, app="bench", actor="agent:bench")

    def _appends(self, peer: AgentsSdkPeer, *, appends: int, batches: int) -> float:
        single = self._session()
        mine = timed(
            lambda i: session_events_append(
                tenant_id=self.tenant_id, session_id=single.pk, events=[new_event(i % 1000)], actor="agent:bench"
            ),
            appends,
        )
        batched = self._session()
        mine_batch = timed(
            lambda i: session_events_append(
                tenant_id=self.tenant_id,
                session_id=batched.pk,
                events=[new_event(i * 20 + k) for k in range(20)],
                actor="agent:bench",
            ),
            batches,
        )
        theirs_session = peer.session()
        theirs = peer.run(lambda: timed(lambda i: peer.add(theirs_session, [item(i % 1000)]), appends))
        theirs_batched = peer.session()
        theirs_batch = peer.run(
            lambda: timed(lambda i: peer.add(theirs_batched, [item(i * 20 + k) for k in range(20)]), batches)
        )
        self.out("")
        self.out("Appends (memgov: encrypted, audited, seq-locked; SQLiteSession: plain JSON rows)")
        self.out(_row("memgov append, 1 event", mine))
        self.out(_row("SQLiteSession.add_items, 1 item", theirs))
        self.out(_row("memgov append, batch of 20", mine_batch, events_per_call=20))
        self.out(_row("SQLiteSession.add_items, batch of 20", theirs_batch, events_per_call=20))
        leaf = session_get(tenant_id=self.tenant_id, session_id=single.pk).leaf_id
        reads = max(20, appends // 20)
        stored = appends + 5  # the timed appends and their warm-up
        whole = f"all {stored}"
        mine_reads = {
            f"memgov branch read, {whole} events": lambda i: branch_events(tenant_id=self.tenant_id, leaf_id=leaf),
            "memgov branch read, last 20": lambda i: branch_events(tenant_id=self.tenant_id, leaf_id=leaf, limit=20),
        }
        their_reads = {
            f"SQLiteSession.get_items, {whole} items": lambda i: peer.get(theirs_session),
            "SQLiteSession.get_items(limit=20)": lambda i: peer.get(theirs_session, limit=20),
        }
        for (label, call), (peer_label, peer_call) in zip(mine_reads.items(), their_reads.items(), strict=True):
            self.out(_row(label, timed(call, reads, warmup=2), events_per_call=0))
            self.out(_row(peer_label, peer.run(lambda c=peer_call: timed(c, reads, warmup=2)), events_per_call=0))
        return percentile(mine, 0.5) / percentile(theirs, 0.5)

    def _long_session(self, *, events: int, reads: int, append_ratio: float) -> None:
        before = history_bytes()
        short = self._session("bob")
        fill(tenant_id=self.tenant_id, session=short, events=1000)
        middle = history_bytes()
        long = self._session("carol")
        fill(tenant_id=self.tenant_id, session=long, events=events)
        after = history_bytes()
        per_1k = (middle - before) / 1000
        per_long = (after - middle) / events
        long = session_get(tenant_id=self.tenant_id, session_id=long.pk)
        ids = dict(Event.objects.filter(session=long).values_list("seq", "id"))
        rng = random.Random(20261201)  # noqa: S311 — which events to time, not a secret
        picks = [ids[rng.randint(1, events)] for _ in range(reads)]

        def state_at(i: int) -> None:
            position = event_visible_to(session=long, event_id=picks[i % len(picks)])
            session_state_at(session=long, at=position)

        at_leaf = timed(lambda i: session_state_at(session=long), reads)
        at_random = timed(state_at, reads)
        forks = {100: [], min(9000, events - 1): []}
        for i in range(reads // 2 + 2):
            for point, samples in forks.items():
                started = time.perf_counter_ns()
                session_fork(
                    tenant_id=self.tenant_id, session_id=long.pk, from_event_id=ids[point], actor="agent:bench"
                )
                if i >= 2:  # the first two of each are warm-up
                    samples.append((time.perf_counter_ns() - started) / 1e6)
        projection = timed(lambda i: session_context_build(session=long, token_budget=4000), reads)
        session_compact(tenant_id=self.tenant_id, session_id=long.pk, actor="agent:bench")
        fill(tenant_id=self.tenant_id, session=long, events=20, start=events)
        long = session_get(tenant_id=self.tenant_id, session_id=long.pk)
        projected = timed(lambda i: session_context_build(session=long, token_budget=4000), reads)

        self.out("")
        self.out(f"A {events:,}-event session (deltas every 5th event, a snapshot every 50)")
        self.out(_row("state at the leaf", at_leaf, events_per_call=0))
        self.out(_row("state at a random event", at_random, events_per_call=0))
        (early, early_samples), (late, late_samples) = forks.items()
        self.out(_row(f"fork at event {early}", early_samples, events_per_call=0))
        self.out(_row(f"fork at event {late}", late_samples, events_per_call=0))
        self.out(_row("context projection, 4,000 tokens, no summary", projection, events_per_call=0))
        self.out(_row("context projection, 4,000 tokens, after a compaction", projected, events_per_call=0))
        self.out(f"{'storage per event at 1,000 events':<52} {per_1k:8.0f} bytes")
        self.out(f"{f'storage per event at {events:,} events':<52} {per_long:8.0f} bytes")

        fork_ratio = statistics.median(late_samples) / statistics.median(early_samples)
        bytes_ratio = per_long / per_1k if per_1k else float("inf")
        worst_state = max(percentile(at_random, 0.99), percentile(at_leaf, 0.99))
        self.out("")
        self.out("Targets")
        for label, figure, passed in (
            ("append p50 within 2x of SQLiteSession.add_items", f"{append_ratio:5.2f}x", append_ratio <= 2),
            ("state at any event <= 5 ms (p99)", f"{worst_state:5.2f} ms", worst_state <= 5),
            (f"fork at event {late} within 1.5x of at event {early}", f"{fork_ratio:5.2f}x", fork_ratio <= 1.5),
            (f"bytes/event at {events:,} within 1.2x of at 1,000", f"{bytes_ratio:5.2f}x", bytes_ratio <= 1.2),
        ):
            self.out(f"  {label:<52} {figure:>9}  {'met' if passed else 'NOT met'}")
