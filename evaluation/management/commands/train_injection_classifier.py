"""Rebuild the injection classifier's weights from the synthetic corpus and its seed."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from evaluation.injection_train import SEED, write_weights
from governance.pipeline.injection_model import WEIGHTS


class Command(BaseCommand):
    help = (
        "Generate the synthetic injection corpus (evaluation/injection_corpus.py) from --seed, train the "
        "logistic regression and write its weights (default: the file the guard loads). The same seed writes "
        "the same weights."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=SEED, help=f"corpus seed (default {SEED})")
        parser.add_argument("--out", default=str(WEIGHTS), help="where to write the .npz weights")

    def handle(self, *args: object, seed: int, out: str, **options: object) -> None:
        path = write_weights(Path(out), seed=seed)
        self.stdout.write(f"wrote {path}")
