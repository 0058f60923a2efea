"""``manage.py bench_report``: run every benchmark and write the figures page (docs/benchmark-figures.md)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.bench_report import BENCHES, bench_report

PAGE = Path(settings.BASE_DIR) / "docs" / "benchmark-figures.md"


class Command(BaseCommand):
    help = "Run the benchmarks, each on a fresh SQLite database, and write their figures to docs/benchmark-figures.md."

    def add_arguments(self, parser: CommandParser) -> None:
        names = ", ".join(dict.fromkeys(bench.name for bench in BENCHES))
        parser.add_argument("--only", nargs="+", default=[], metavar="NAME", help=f"some of: {names}")
        parser.add_argument("--quick", action="store_true", help="tiny sizes: check the commands, not figures")
        parser.add_argument("--output", default=str(PAGE), help="where the page goes ('-' prints it)")

    def handle(self, *args: object, only: list[str], quick: bool, output: str, **options: object) -> None:
        existing = Path(output).read_text() if output != "-" and Path(output).exists() else ""
        try:
            page, ran = bench_report(only=only, quick=quick, existing=existing, log=self.stderr.write)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if output == "-":
            self.stdout.write(page)
        else:
            Path(output).write_text(page)
            self.stdout.write(f"wrote {output}: {len(ran)} benchmarks")
        failed = [item.bench.name for item in ran if item.returncode]
        if failed:
            raise CommandError(f"failed: {', '.join(failed)} (their output is on the page)")
