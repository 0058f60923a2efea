"""Stage 4 — rule 3: how sensitive the content is; restricted data is never memory.

The level is the highest of what the recognizers detect, what the agent declared (a declaration
can raise it, never lower it) and the floor of the memory's type: a ``user_profile`` is the
person's stable background — their projects, team, role, stack (§6.2) — which §12.2 labels
``medium`` even when no single word in it is recognised.

Restricted content (secrets, id/passport/bank-card numbers, medical diagnoses) is rejected with
the entity *types* found — never the values — for the audit event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from governance.pipeline.base import Stop, WriteContext
from governance.pipeline.reasons import ReasonCode
from governance.vocabulary import DecisionKind, MemoryType, Sensitivity, max_sensitivity

_TYPE_FLOOR: dict[MemoryType, Sensitivity] = {MemoryType.USER_PROFILE: Sensitivity.MEDIUM}


class SensitivityFinding(Protocol):
    level: Sensitivity
    entity_types: tuple[str, ...]


Detector = Callable[[str], SensitivityFinding]


def _default_detector(text: str) -> SensitivityFinding:
    # Imported on first use: the recognizers load NLP models, which importing the pipeline must not.
    from governance.recognizers import detect_sensitivity

    return detect_sensitivity(text)


class SensitivityStage:
    name = "sensitivity"

    def __init__(self, detect: Detector | None = None) -> None:
        self._detect = detect or _default_detector

    def run(self, ctx: WriteContext) -> WriteContext:
        finding = self._detect(ctx.candidate.content)
        declared = ctx.candidate.sensitivity or Sensitivity.LOW
        floor = _TYPE_FLOOR.get(ctx.type, Sensitivity.LOW) if ctx.type else Sensitivity.LOW
        level = max_sensitivity(Sensitivity(finding.level), declared, floor)
        ctx = ctx.with_(sensitivity=level, entity_types=tuple(finding.entity_types))
        if level == Sensitivity.RESTRICTED:
            raise Stop(
                ctx.decide(
                    DecisionKind.REJECT,
                    ReasonCode.RESTRICTED_DATA,
                    "The content contains restricted data, which is never stored as memory.",
                )
            )
        return ctx
