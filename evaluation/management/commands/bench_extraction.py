"""Benchmark extraction: phase 1 throughput on one worker (this process) and phase 2 on many memories."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.extraction_bench import bench_phase1, bench_phase2
from evaluation.read_bench import python_speed


class Command(BaseCommand):
    help = (
        "Phase 1: sessions/s and events/s extracting ended 50-event sessions in this one process (the deterministic "
        "extractor), with the write pipeline's share of the time. Phase 2: seconds to consolidate --memories "
        "memories, and milliseconds for a pass when nothing is dirty. Everything is rolled back."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sessions", type=int, default=40)
        parser.add_argument("--events", type=int, default=50)
        parser.add_argument("--memories", type=int, default=10_000)
        parser.add_argument("--per-subject", type=int, default=100)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if min(options["sessions"], options["events"], options["memories"], options["per_subject"]) < 1:
            raise CommandError("--sessions, --events, --memories and --per-subject must be at least 1")
        from memories.warmup import warm_up

        warm_up()  # what a worker loads at its start (config/celery.py): the detector, tokenizers, embedder
        probe = python_speed()
        phase1 = bench_phase1(sessions=options["sessions"], events=options["events"])
        phase2 = bench_phase2(memories=options["memories"], per_subject=options["per_subject"])
        figures = {"probe_us": round(probe, 1), "phase1": phase1, "phase2": phase2}
        if options["json"]:
            self.stdout.write(json.dumps(figures, sort_keys=True))
            return
        self.stdout.write(f"this machine runs sum(range(1000)) in {probe:.1f} µs")
        self.stdout.write(
            f"phase 1: {phase1['sessions']} sessions × {phase1['events_per_session']} events in {phase1['seconds']} s: "
            f"{phase1['sessions_per_s']} sessions/s, {phase1['events_per_s']} events/s "
            f"(target ≥ 200), {phase1['candidates']} candidates, write pipeline {phase1['write_pipeline_share']:.0%}; "
            f"CPU {phase1['cpu_seconds']} s: {phase1['events_per_cpu_s']} events per CPU-second"
        )
        self.stdout.write(
            f"phase 2: {phase2['memories']} memories of {phase2['subjects']} subjects in {phase2['seconds']} s "
            f"(target ≤ 30; CPU {phase2['cpu_seconds']} s), {phase2['proposed']} proposals; nothing dirty: "
            f"{phase2['nothing_dirty_ms']} ms (target ≤ 50; CPU {phase2['nothing_dirty_cpu_ms']} ms)"
        )
