"""Stage 4 — rule 3: how sensitive the content is; restricted data is never memory.

The level is the highest of what the recognizers detect, what the agent declared (a declaration
can raise it, never lower it) and the floor of the memory's type: a ``user_profile`` is the
person's stable background — their projects, team, role, stack (§6.2) — which §12.2 labels
``medium`` even when no single word in it is recognised.

The recognizers read the content as written and, when it holds base64, hex, percent-encoded or ROT13
spans, also the content with them decoded (``decode.py``): a key or an id number behind an encoding is
the same data.

Restricted content (secrets, id/passport/bank-card numbers, medical diagnoses) is rejected with
the entity *types* found — never the values — for the audit event.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from governance.pipeline.base import Stop, WriteContext
from governance.pipeline.reasons import ReasonCode
from governance.vocabulary import DecisionKind, MemoryType, Sensitivity, max_sensitivity

_TYPE_FLOOR: dict[MemoryType, Sensitivity] = {MemoryType.USER_PROFILE: Sensitivity.MEDIUM}
# What a rule is *about* rather than data about a person: "ask me before any refund", "任何需要管理员
# 权限的命令都先跟我确认", "SQL 里用只读账号". In a rule that keeps the person in the decision, with no
# identifier in it (no run of digits), these topics do not raise the level.
_RULE_TOPICS = frozenset({"PERMISSION_INFO", "ORDER_INFO", "ACCOUNT_INFO"})
_IDENTIFIER = re.compile(r"\d{4,}")


class SensitivityFinding(Protocol):
    level: Sensitivity
    entity_types: tuple[str, ...]


Detector = Callable[[str], SensitivityFinding]


def _a_rule_that_defers(text: str) -> bool:
    from governance.pipeline.lexicons.loosening import defers_to_person
    from governance.pipeline.lexicons.text import prepare

    return _IDENTIFIER.search(text) is None and defers_to_person(prepare(text))


def _level_without(entity_types: tuple[str, ...], dropped: set[str]) -> Sensitivity:
    from governance.recognizers.entities import ENTITY_LEVELS, EntityType

    kept = [ENTITY_LEVELS[EntityType(name)] for name in entity_types if name not in dropped]
    return max_sensitivity(Sensitivity.LOW, *kept)


def _default_detector(text: str) -> SensitivityFinding:
    # Imported on first use: the recognizers load NLP models, which importing the pipeline must not.
    from governance.recognizers import detect_sensitivity

    return detect_sensitivity(text)


class SensitivityStage:
    name = "sensitivity"

    def __init__(self, detect: Detector | None = None) -> None:
        self._detect = detect or _default_detector

    def run(self, ctx: WriteContext) -> WriteContext:
        level_found, entity_types = self._found(ctx)
        topics = set(entity_types) & _RULE_TOPICS
        if topics and _a_rule_that_defers(ctx.candidate.screened):
            level_found = _level_without(entity_types, topics)
        declared = ctx.candidate.sensitivity or Sensitivity.LOW
        floor = _TYPE_FLOOR.get(ctx.type, Sensitivity.LOW) if ctx.type else Sensitivity.LOW
        level = max_sensitivity(level_found, declared, floor)
        ctx = ctx.with_(sensitivity=level, entity_types=entity_types)
        if level == Sensitivity.RESTRICTED:
            raise Stop(
                ctx.decide(
                    DecisionKind.REJECT,
                    ReasonCode.RESTRICTED_DATA,
                    "The content contains restricted data, which is never stored as memory.",
                )
            )
        return ctx

    def _found(self, ctx: WriteContext) -> tuple[Sensitivity, tuple[str, ...]]:
        """What the recognizers find in the content as written and, when it holds encoded spans, in the
        content with them decoded (an id number or a key behind base64 is still one)."""
        finding = self._detect(ctx.candidate.content)
        level, types = Sensitivity(finding.level), set(finding.entity_types)
        decoded = ctx.candidate.decoded
        if decoded:
            hidden = self._detect(decoded)
            level, types = max_sensitivity(level, Sensitivity(hidden.level)), types | set(hidden.entity_types)
        return level, tuple(sorted(types))
