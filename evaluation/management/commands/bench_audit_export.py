"""``manage.py bench_audit_export --events N``: memory and speed of the streamed audit export.

Seeds N events into a throwaway tenant, streams one export through the same StreamingHttpResponse
the API returns, and prints throughput and memory. Everything happens in one transaction that is
rolled back at the end (unless ``--keep``), so nothing is left behind; on SQLite that transaction
holds the write lock meanwhile, so run it against a scratch database rather than a busy one.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import resource
import secrets
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import IO

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from audit.export import ExportFormat, audit_export_response, audit_export_start
from evaluation.audit_bench import audit_bench_seed
from governance.services.tenancy import tenant_create

MB = 1024 * 1024


def _rss_bytes() -> int:
    """Current resident set size (Linux /proc); 0 where unavailable."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _release_freed_memory() -> None:
    """Hand memory freed by the seeding back to the OS, so RSS before the export is a fair baseline."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # glibc only
        ctypes.CDLL("libc.so.6").malloc_trim(0)


class Command(BaseCommand):
    help = "Seed N audit events in a throwaway tenant and measure a streamed export's memory and speed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--events", type=int, default=1_000_000)
        parser.add_argument("--format", choices=[f.value for f in ExportFormat], default="jsonl")
        parser.add_argument("--chunk-size", type=int, default=1000, help="rows per database fetch")
        parser.add_argument("--output", default=os.devnull, help="where the export goes (default /dev/null)")
        parser.add_argument("--verify", action="store_true", help="then run verify_audit_export on --output")
        parser.add_argument("--tracemalloc", action="store_true", help="also trace Python allocations (slower)")
        parser.add_argument("--keep", action="store_true", help="commit the bench tenant instead of rolling back")

    def handle(self, *args: object, **options: object) -> None:
        events = int(options["events"])  # type: ignore[arg-type]
        if events < 1:
            raise CommandError("--events must be at least 1")
        output = Path(str(options["output"]))
        if options["verify"] and str(output) == os.devnull:
            raise CommandError("--verify needs --output FILE")
        self.stdout.write(f"database: {connection.vendor}; events: {events:,}; format: {options['format']}")
        with transaction.atomic():
            tenant = tenant_create(slug=f"bench-{secrets.token_hex(4)}", actor="system:bench")
            started = time.perf_counter()
            audit_bench_seed(tenant_id=tenant.pk, count=events)
            seeded = time.perf_counter() - started
            self.stdout.write(f"seeded in {seeded:.1f} s ({events / seeded:,.0f} events/s)")
            export = audit_export_start(
                tenant=tenant,
                fmt=ExportFormat(str(options["format"])),
                start=None,
                end=None,
                actor="system:bench",
                chunk_size=int(options["chunk_size"]),  # type: ignore[arg-type]
            )
            with output.open("wb") as sink:
                self._export(audit_export_response(export), sink, traced=bool(options["tracemalloc"]))
            if not options["keep"]:
                transaction.set_rollback(True)
        if options["verify"]:
            self._verify(output)

    def _export(self, response: object, sink: IO[bytes], *, traced: bool) -> None:
        _release_freed_memory()
        baseline = peak = _rss_bytes()
        if traced:
            tracemalloc.start()
        written = 0
        started = time.perf_counter()
        for chunks, chunk in enumerate(response.streaming_content, start=1):  # type: ignore[attr-defined]
            sink.write(chunk)
            written += len(chunk)
            if chunks % 16 == 0:
                peak = max(peak, _rss_bytes())
        elapsed = time.perf_counter() - started
        peak = max(peak, _rss_bytes())
        self.stdout.write(f"exported {written / MB:,.1f} MB in {elapsed:.1f} s: {written / MB / elapsed:,.1f} MB/s")
        self.stdout.write(
            f"RSS before export {baseline / MB:,.1f} MB, peak during export {peak / MB:,.1f} MB "
            f"(+{(peak - baseline) / MB:,.1f} MB); process max RSS "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.1f} MB (includes seeding)"
        )
        if traced:
            _, traced_peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            self.stdout.write(f"tracemalloc peak during export: {traced_peak / MB:,.2f} MB")

    def _verify(self, output: Path) -> None:
        """verify_audit_export in its own process; its peak RSS is read from /proc while it runs
        (getrusage's RUSAGE_CHILDREN would report this bigger parent, which the child was forked from)."""
        started = time.perf_counter()
        child = subprocess.Popen(  # noqa: S603 - our own manage.py with a path we were given
            [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "verify_audit_export", str(output)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        high_water = 0
        while child.poll() is None:
            high_water = max(high_water, _high_water_kb(child.pid))
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
        self.stdout.write((child.stdout.read() if child.stdout else "").strip())
        self.stdout.write(f"verified in {elapsed:.1f} s; verifier peak RSS {high_water / 1024:,.1f} MB (whole process)")
        if child.returncode != 0:
            raise SystemExit(child.returncode)


def _high_water_kb(pid: int) -> int:
    """VmHWM of a running process, in kB (0 once it has gone)."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0
