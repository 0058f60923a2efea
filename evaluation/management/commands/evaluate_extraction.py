"""Evaluate phase 1 extraction against labelled conversations (format: fixtures/extraction_eval.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.extraction_eval import SPLITS, EvalFileError, evaluate_extraction, load_conversations

SUMMARY_KEYS = (
    "conversations",
    "precision",
    "recall",
    "recall_ignoring_type",
    "decision_accuracy",
    "level_accuracy",
    "dedup_met_rate",
    "must_not_yield_violations",
    "restricted_leaks",
)


class Command(BaseCommand):
    help = (
        "Replay labelled conversations (JSONL, see fixtures/extraction_eval.md) in a throwaway tenant (rolled "
        "back), run phase 1 extraction, and print candidate precision and recall, decision accuracy, "
        "must_not_yield violations and restricted values that reached any derived artifact (must be 0), "
        "overall and per split. With --check, exit 1 when a restricted value leaked."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--check", action="store_true", help="exit 1 when any restricted value leaked")
        parser.add_argument("--split", choices=SPLITS, help="only the conversations of this split")

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        if not file.exists():
            raise CommandError(f"{file}: no such file")
        try:
            conversations = load_conversations(file)
        except EvalFileError as exc:
            raise CommandError(f"{file}: {exc}") from exc
        if options["split"]:
            conversations = [c for c in conversations if c.get("split") == options["split"]]
        metrics = evaluate_extraction(conversations)
        if options["json"]:
            self.stdout.write(json.dumps(metrics, ensure_ascii=False, sort_keys=True))
        else:
            self._table(metrics)
        if options["check"] and metrics["restricted_leaks"]:
            raise CommandError(f"{metrics['restricted_leaks']} restricted value(s) reached a derived artifact")

    def _table(self, metrics: dict[str, Any]) -> None:
        groups = {"all": metrics, **metrics["by_split"]}
        self.stdout.write("metric".ljust(28) + "".join(name.rjust(10) for name in groups))
        for key in SUMMARY_KEYS:
            cells = "".join(str(group.get(key)).rjust(10) for group in groups.values())
            self.stdout.write(key.ljust(28) + cells)
        self.stdout.write("")
        self.stdout.write("class".ljust(28) + "precision".rjust(10) + "recall".rjust(10) + "violations".rjust(11))
        for name, group in metrics["by_class"].items():
            self.stdout.write(
                name.ljust(28)
                + str(group["precision"]).rjust(10)
                + str(group["recall"]).rjust(10)
                + str(group["must_not_yield_violations"]).rjust(11)
            )
