"""Evaluate the read path against labelled scenarios (format in evaluation/read_eval.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.read_eval import EvalFileError, evaluate_read, load_eval_set

GATES = ("stale_memory_rate", "cross_tenant_leak_rate")
SUMMARY_KEYS = (
    "scenarios",
    "memories",
    "injected",
    "ranked",
    "precision_at_k",
    "recall_at_k",
    "ranked_recall_at_k",
    "mrr",
    "cross_lingual_recall_at_5",
    "empty_rate",
    "stale_memory_rate",
    "cross_tenant_leak_rate",
    "cross_subject_leak_rate",
    "forbidden_rate",
    "ranked_forbidden_rate",
    "conflict_accuracy",
    "cross_scope_accuracy",
)


class Command(BaseCommand):
    help = (
        "Run read-path scenarios from a JSONL file through memory_context_build in throwaway tenants (rolled "
        "back) and print precision@k, recall@k, stale_memory_rate and cross_tenant_leak_rate. File format: "
        'one JSON object per line with "kind": "world" (tenants, members, teams, paused subjects; once), '
        '"memory" (ref, tenant, content, scope fields, type, source_type, confidence, status, '
        'expires_in_hours, age_days) or "scenario" (id, tenant, caller "agent"|"person:<subject>", scope, '
        "query, instruction, types, top_k, token_budget, relevant/forbidden/conflicts refs, cross_scope). "
        "See evaluation/read_eval.py. With --check, exit 1 unless stale and cross-tenant rates are 0."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--json", action="store_true", help="print one JSON object (last line)")
        parser.add_argument("--check", action="store_true", help="exit 1 when a gate (stale, cross-tenant) fails")
        parser.add_argument(
            "--split", choices=("dev", "holdout"), help="only the scenarios of this split (the world is seeded whole)"
        )

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        if not file.exists():
            raise CommandError(f"{file}: no such file")
        try:
            eval_set = load_eval_set(file)
        except EvalFileError as exc:
            raise CommandError(f"{file}: {exc}") from exc
        if options["split"]:
            eval_set.scenarios = [s for s in eval_set.scenarios if s.get("split") == options["split"]]
        metrics = evaluate_read(eval_set)
        if options["json"]:
            self.stdout.write(json.dumps(metrics, ensure_ascii=False, sort_keys=True))
        else:
            for key in SUMMARY_KEYS:
                self.stdout.write(f"{key:26} {metrics[key]}")
            self._table("class", metrics["by_class"])
            if len(metrics["by_split"]) > 1:
                self._table("split", metrics["by_split"])
            self.stdout.write(f"{'mismatches':24} {len(metrics['mismatches'])}")
            for item in metrics["mismatches"]:
                self.stdout.write(f"  {json.dumps(item, ensure_ascii=False)}")
        failed = [key for key in GATES if metrics[key] != 0]
        if options["check"] and failed:
            raise CommandError(f"gate failed: {', '.join(failed)} not 0")

    def _table(self, name: str, groups: dict[str, dict[str, Any]]) -> None:
        columns = ("scenarios", "precision_at_k", "recall_at_k", "ranked_recall_at_k", "mrr", "empty_rate")
        self.stdout.write(f"| {name} | " + " | ".join(columns) + " |")
        self.stdout.write("| --- |" + " ---: |" * len(columns))
        for group, figures in groups.items():
            cells = ["–" if figures[c] is None else str(figures[c]) for c in columns]
            self.stdout.write(f"| {group} | " + " | ".join(cells) + " |")
