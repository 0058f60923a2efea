"""Turn-level recall over long conversations through the REST API (format in evaluation/conversation_eval.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.conversation_eval import ConversationFileError, evaluate_conversations, load_conversations

COLUMNS = (
    "questions",
    "recall_at_k",
    "hit_at_k",
    "bm25_recall_at_k",
    "bm25_stored_recall_at_k",
    "evidence_stored",
    "items_returned",
)


class Command(BaseCommand):
    help = (
        "Write every turn of long conversations through POST /api/v1/memories/write, ask their questions through "
        "POST /api/v1/memories/context, and print turn-level recall@k beside plain BM25 over the same turns "
        "(all in a throwaway tenant, rolled back). See evaluation/conversation_eval.py for the file format."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", type=Path, nargs="+")
        parser.add_argument("--top-k", type=int, default=10, help="items asked for per question (default 10)")
        parser.add_argument("--split", choices=("dev", "holdout"), help="only the conversations of this split")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--misses", action="store_true", help="list the questions not fully answered")

    def handle(self, *args: Any, files: list[Path], **options: Any) -> None:
        missing = [str(path) for path in files if not path.exists()]
        if missing:
            raise CommandError(f"no such file: {', '.join(missing)}")
        if not 1 <= options["top_k"] <= 50:
            raise CommandError("--top-k must be between 1 and 50 (the API's limit)")
        try:
            conversations = load_conversations(files)
        except (ConversationFileError, json.JSONDecodeError) as exc:
            raise CommandError(str(exc)) from exc
        report = evaluate_conversations(conversations, top_k=options["top_k"], split=options["split"])
        if options["json"]:
            self.stdout.write(json.dumps(report, ensure_ascii=False, sort_keys=True))
            return
        self.stdout.write(
            f"{report['conversations']} conversations, {report['turns']} turns, top_k {report['top_k']}; "
            f"writes: {report['writes']}"
        )
        for key in COLUMNS:
            self.stdout.write(f"{key:26} {report.get(key)}")
        for group in ("by_category", "by_language", "by_style", "by_split"):
            self._table(group.removeprefix("by_"), report[group])
        if options["misses"]:
            for miss in report["misses"]:
                self.stdout.write(json.dumps(miss, ensure_ascii=False))

    def _table(self, name: str, groups: dict[str, dict[str, Any]]) -> None:
        self.stdout.write(f"| {name} | " + " | ".join(COLUMNS) + " |")
        self.stdout.write("| --- |" + " ---: |" * len(COLUMNS))
        for group, figures in groups.items():
            self.stdout.write(f"| {group} | " + " | ".join(str(figures.get(c, "–")) for c in COLUMNS) + " |")
