"""The policy evaluation (§16.3): labeled candidates through the real write path, then the metrics.

Each case runs in its own throwaway tenant inside a transaction that is rolled back, so the
evaluation never leaves data behind and cases can't influence each other.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from governance.pipeline.base import Actor, Candidate, InvalidCandidate, Scope
from governance.services.tenancy import tenant_create
from governance.vocabulary import LONG_TERM_LEVELS, Level, MemoryType, Role, Sensitivity, SourceType
from memories.services.records import NewMemory, memory_create
from memories.services.write import memory_write

EVAL_USER = "eval-user"
POISONING_CODES = {"policy_override", "untrusted_source"}
SENSITIVE_CODES = {"restricted_data", "too_sensitive_for_long_term"}


class EvalFileError(ValueError):
    """A line of the evaluation file is not a valid case; the message names the line."""


@dataclass(frozen=True)
class Outcome:
    case_id: str
    expected: dict[str, Any]
    got: dict[str, Any]
    level: str


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def metrics(self) -> dict[str, Any]:
        def rate(hits: int, total: int) -> float | None:
            return round(hits / total, 4) if total else None

        outs = self.outcomes

        def agrees(key: str) -> tuple[int, int]:
            relevant = [o for o in outs if key in o.expected]
            return sum(o.got.get(key) == o.expected[key] for o in relevant), len(relevant)

        decided, _ = agrees("decision")
        typed, typed_total = agrees("type")
        graded, graded_total = agrees("sensitivity")
        kept = [o for o in outs if o.got["decision"] != "reject"]
        should_keep = [o for o in outs if o.expected["decision"] != "reject"]
        kept_rightly = [o for o in kept if o.expected["decision"] != "reject"]
        sensitive = [
            o
            for o in outs
            if o.expected.get("sensitivity") in {"high", "restricted"}
            or o.expected.get("reason_code") in SENSITIVE_CODES
        ]
        sensitive_saved_long = [o for o in sensitive if o.got["decision"] != "reject" and o.level in LONG_TERM_LEVELS]
        poisoning = [o for o in outs if o.expected.get("reason_code") in POISONING_CODES]
        restricted_saved = [
            o
            for o in outs
            if o.got["decision"] != "reject"
            and (o.expected.get("sensitivity") == "restricted" or o.got.get("sensitivity") == "restricted")
        ]
        mismatches = [
            {"id": o.case_id, "expected": o.expected, "got": o.got}
            for o in outs
            if any(o.got.get(key) != value for key, value in o.expected.items())
        ]
        return {
            "cases": len(outs),
            "decision_accuracy": rate(decided, len(outs)),
            "type_accuracy": rate(typed, typed_total),
            "sensitivity_accuracy": rate(graded, graded_total),
            "write_precision": rate(len(kept_rightly), len(kept)),
            "write_recall": rate(len(kept_rightly), len(should_keep)),
            "sensitive_memory_rate": rate(len(sensitive_saved_long), len(sensitive)) or 0.0,
            "poisoning_acceptance_rate": rate(sum(o.got["decision"] != "reject" for o in poisoning), len(poisoning))
            or 0.0,
            "restricted_saved": len(restricted_saved),
            "mismatches": mismatches,
        }


def load_cases(path: Path) -> list[dict[str, Any]]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvalFileError(f"line {number}: not JSON ({exc.msg})") from None
        for key in ("id", "candidate", "expected"):
            if key not in case:
                raise EvalFileError(f"line {number}: missing {key!r}")
        if "decision" not in case["expected"]:
            raise EvalFileError(f"line {number}: expected.decision is required")
        cases.append(case)
    return cases


def _scope(raw: dict[str, Any]) -> Scope:
    level = Level(raw["level"])
    user_id = raw.get("user_id", EVAL_USER if level not in {Level.TEAM, Level.TENANT} else "")
    if level == Level.PROJECT and "user_id" not in raw:
        user_id = EVAL_USER
    return Scope(
        level=level,
        user_id=user_id,
        team=raw.get("team", ""),
        project=raw.get("project", ""),
        session_id=raw.get("session_id", ""),
        task_id=raw.get("task_id", ""),
    )


def _candidate(raw: dict[str, Any]) -> Candidate:
    source = raw.get("source") or {}
    return Candidate(
        content=raw["content"],
        scope=_scope(raw["scope"]),
        source_type=SourceType(source["source_type"]),
        type=MemoryType(raw["type"]) if raw.get("type") else None,
        source_message_id=source.get("source_message_id", ""),
        confidence=float(raw.get("confidence", 1.0)),
        sensitivity=Sensitivity(raw["sensitivity"]) if raw.get("sensitivity") else None,
    )


def _actor(raw: dict[str, Any], scope: Scope) -> Actor:
    return Actor(
        role=Role(raw.get("role", "member")),
        user_id=scope.user_id or EVAL_USER,
        memory_paused=bool(raw.get("memory_paused", False)),
        session_opt_out=bool(raw.get("session_opt_out", False)),
        owned_teams=frozenset(raw.get("owned_teams", [])),
    )


class _Rollback(Exception):
    pass


def run_case(case: dict[str, Any], index: int) -> Outcome:
    candidate = _candidate(case["candidate"])
    got: dict[str, Any] = {}
    try:
        with transaction.atomic():
            tenant = tenant_create(slug=f"eval-{index}", actor="evaluate_policy")
            for item in case.get("existing", []):
                memory_create(
                    tenant_id=tenant.pk,
                    new=NewMemory(
                        scope=_scope(item["scope"]),
                        type=item["type"],
                        content=item["content"],
                        source_type=(item.get("source") or {}).get("source_type", "explicit_user_request"),
                    ),
                    actor="evaluate_policy",
                )
            try:
                result = memory_write(
                    tenant_id=tenant.pk,
                    candidate=candidate,
                    actor_label="evaluate_policy",
                    actor=_actor(case.get("actor", {}), candidate.scope),
                )
                decision = result.decision
                got = {
                    "decision": decision.kind.value,
                    "reason_code": decision.reason_code,
                    "type": decision.type.value if decision.type else None,
                    "sensitivity": decision.sensitivity.value,
                    "deduplicated": decision.deduplicated,
                    "confirm_by": decision.confirm_by,
                }
            except InvalidCandidate as exc:
                got = {"decision": "invalid", "reason_code": f"invalid:{exc.field}"}
            raise _Rollback
    except _Rollback:
        pass
    return Outcome(case["id"], case["expected"], got, candidate.scope.level)


def evaluate(cases: Iterable[dict[str, Any]]) -> Report:
    report = Report()
    for index, case in enumerate(cases):
        report.outcomes.append(run_case(case, index))
    return report
