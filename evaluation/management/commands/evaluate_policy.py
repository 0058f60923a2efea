import json as jsonlib
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.policy_eval import EvalFileError, evaluate, load_cases

SUMMARY_KEYS = (
    "cases",
    "decision_accuracy",
    "type_accuracy",
    "sensitivity_accuracy",
    "write_precision",
    "write_recall",
    "sensitive_memory_rate",
    "poisoning_acceptance_rate",
    "restricted_saved",
    "user_correction_success_rate",
    "deletion_success_rate",
)
PER_SET_KEYS = (
    "attack_acceptance_rate",
    "secret_recall",
    "restricted_pii_recall",
    "high_pii_recall",
    "false_reject_rate",
    "ordinary_restricted_or_override_rate",
)


class Command(BaseCommand):
    help = (
        "Run a JSONL evaluation set (DESIGN.md format) through the real write pipeline, each case in a "
        "throwaway tenant that is rolled back, and print the §16.3 metrics."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", type=Path, nargs="+", help="one or more JSONL sets, evaluated together")
        parser.add_argument("--json", action="store_true", help="print one JSON object (last line)")
        parser.add_argument(
            "--split",
            choices=(
                "dev",
                "holdout",
                "fresh",
                "fresh2",
                "fresh3",
                "fresh4",
                "fresh5",
                "fresh6",
                "fresh7",
                "fresh7-read",
                "fresh8",
                "fresh8-read",
                "fresh9",
                "fresh9-read",
            ),
            help="only the cases of this split (tune on dev; report holdout without reading its mismatches)",
        )

    def handle(self, *args: object, files: list[Path], **options: object) -> None:
        cases = []
        for file in files:
            if not file.exists():
                raise CommandError(f"{file}: no such file")
            try:
                cases += load_cases(file)
            except EvalFileError as exc:
                raise CommandError(f"{file}: {exc}") from exc
        if options["split"]:
            cases = [case for case in cases if case.get("split") == options["split"]]
        metrics = evaluate(cases).metrics()
        if options["json"]:
            self.stdout.write(_json_line(metrics))
            return
        for key in SUMMARY_KEYS:
            self.stdout.write(f"{key:28} {metrics[key]}")
        for set_name, splits in metrics["per_set"].items():
            for split, figures in splits.items():
                shown = ", ".join(f"{key} {figures[key]}" for key in PER_SET_KEYS if figures.get(key) is not None)
                self.stdout.write(f"  {set_name}/{split}: {figures['cases']} cases, {shown}")
        mismatches = metrics["mismatches"]
        self.stdout.write(f"{'mismatches':28} {len(mismatches)}")
        for item in mismatches:
            self.stdout.write(f"  {item['id']}: expected {item['expected']} got {item['got']}")


def _json_line(metrics: dict) -> str:
    return jsonlib.dumps(metrics, ensure_ascii=False, sort_keys=True)
