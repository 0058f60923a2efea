"""The policy evaluation (§16.3): labeled candidates through the real write path, then the metrics.

Each case runs in its own throwaway tenant inside a transaction that is rolled back, so the
evaluation never leaves data behind and cases can't influence each other.

A case is a candidate to write (DESIGN.md "The policy evaluation set") or, for §16.2's "the user
asks to delete a memory", a natural-language ``command`` run against its ``existing`` memories.
``expected.alt_reason_codes`` and ``expected.alt_sensitivities`` list the other answers the rule
table also allows. Cases may carry ``set`` and ``split`` (fixtures/gate/README.md): the gate's
figures are then reported per set and split (:mod:`evaluation.gate_metrics`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from evaluation.gate_metrics import gate_metrics
from governance.pipeline.base import Actor, Candidate, InvalidCandidate, Scope
from governance.services.tenancy import tenant_create
from governance.vocabulary import LONG_TERM_LEVELS, Level, MemoryType, Role, Sensitivity, SourceType
from memories.models import Memory
from memories.nlcommands import command_run
from memories.services.records import NewMemory, memory_create
from memories.services.write import memory_write

EVAL_USER = "eval-user"
POISONING_CODES = {"policy_override", "untrusted_source"}
# The classifier's code is rule 4's too: a case labeled policy_override agrees with either.
SAME_RULE = {"injection_classifier": "policy_override"}
SENSITIVE_CODES = {"restricted_data", "too_sensitive_for_long_term"}


class EvalFileError(ValueError):
    """A line of the evaluation file is not a valid case; the message names the line."""


# Keys of ``expected`` that widen another key rather than name a result of their own.
ALTERNATIVES = {"alt_reason_codes": "reason_code", "alt_sensitivities": "sensitivity"}


@dataclass(frozen=True)
class Outcome:
    case_id: str
    expected: dict[str, Any]
    got: dict[str, Any]
    level: str
    set: str = ""
    split: str = ""
    label: str = ""  # the case's taxonomy class
    kind: str = "write"  # "write" | "command"
    corrected: bool | None = None  # a correction case: did the memory it corrects now say the new thing?

    def agrees(self, key: str) -> bool:
        """Whether the result agrees with ``expected[key]`` or one of the alternatives allowed for it."""
        allowed = [self.expected[key]]
        for alt_key, target in ALTERNATIVES.items():
            if target == key:
                allowed.extend(self.expected.get(alt_key, ()))
        got = self.got.get(key)
        return got in allowed or (key == "reason_code" and SAME_RULE.get(got) in allowed)

    @property
    def matches(self) -> bool:
        return all(self.agrees(key) for key in self.expected if key not in ALTERNATIVES)


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def metrics(self) -> dict[str, Any]:
        def rate(hits: int, total: int) -> float | None:
            return round(hits / total, 4) if total else None

        outs = self.outcomes

        def agrees(key: str) -> tuple[int, int]:
            relevant = [o for o in outs if key in o.expected]
            return sum(o.agrees(key) for o in relevant), len(relevant)

        decided, _ = agrees("decision")
        writes = [o for o in outs if o.kind == "write"]
        typed, typed_total = agrees("type")
        graded, graded_total = agrees("sensitivity")
        kept = [o for o in writes if o.got["decision"] != "reject"]
        should_keep = [o for o in writes if o.expected["decision"] != "reject"]
        kept_rightly = [o for o in kept if o.expected["decision"] != "reject"]
        sensitive = [
            o
            for o in writes
            if o.expected.get("sensitivity") in {"high", "restricted"}
            or o.expected.get("reason_code") in SENSITIVE_CODES
        ]
        sensitive_saved_long = [o for o in sensitive if o.got["decision"] != "reject" and o.level in LONG_TERM_LEVELS]
        poisoning = [o for o in writes if o.expected.get("reason_code") in POISONING_CODES]
        restricted_saved = [
            o
            for o in writes
            if o.got["decision"] != "reject"
            and (o.expected.get("sensitivity") == "restricted" or o.got.get("sensitivity") == "restricted")
        ]
        mismatches = [{"id": o.case_id, "expected": o.expected, "got": o.got} for o in outs if not o.matches]
        corrections = [o for o in outs if o.corrected is not None]
        commands = [o for o in outs if o.kind == "command"]
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
            # §16.3: of the corrections that should replace a memory, how many did.
            "user_correction_success_rate": rate(sum(bool(o.corrected) for o in corrections), len(corrections)),
            "corrections": len(corrections),
            # §16.2 "the user asks to delete a memory": the command removed exactly what it should.
            "deletion_success_rate": rate(sum(o.matches for o in commands), len(commands)),
            "deletions": len(commands),
            "per_set": gate_metrics(outs),
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
        for key in ("id", "expected"):
            if key not in case:
                raise EvalFileError(f"line {number}: missing {key!r}")
        if ("candidate" in case) == ("command" in case):
            raise EvalFileError(f"line {number}: a case has either a 'candidate' or a 'command'")
        if "command" in case and not str((case["command"] or {}).get("text", "")).strip():
            raise EvalFileError(f"line {number}: command.text is required")
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
        requires_confirmation=bool(raw.get("requires_confirmation", False)),
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


def _is_correction(case: dict[str, Any]) -> bool:
    """A case labelled with the existing memory (its index) that the candidate must replace (§16.3)."""
    return "supersedes" in case["expected"]


def _write(case: dict[str, Any], *, tenant_id: int, existing: list[Memory]) -> tuple[dict[str, Any], bool | None]:
    candidate = _candidate(case["candidate"])
    try:
        result = memory_write(
            tenant_id=tenant_id,
            candidate=candidate,
            actor_label="evaluate_policy",
            actor=_actor(case.get("actor", {}), candidate.scope),
        )
    except InvalidCandidate as exc:
        return {"decision": "invalid", "reason_code": f"invalid:{exc.field}"}, False if _is_correction(case) else None
    decision = result.decision
    ids = [str(memory.pk) for memory in existing]
    got = {
        "decision": decision.kind.value,
        "reason_code": decision.reason_code,
        "type": decision.type.value if decision.type else None,
        "sensitivity": decision.sensitivity.value,
        "deduplicated": decision.deduplicated,
        "confirm_by": decision.confirm_by,
        # Which existing memory (by index) it replaced or conflicts with, and on which aspect.
        "supersedes": ids.index(str(decision.supersedes)) if str(decision.supersedes) in ids else None,
        "conflict_with": ids.index(str(decision.conflict_with)) if str(decision.conflict_with) in ids else None,
        "conflict_aspect": decision.conflict_aspect,
    }
    corrected = None
    if _is_correction(case):
        # Success is what the person sees afterwards: the corrected memory now says the new thing.
        target = case["expected"]["supersedes"]
        corrected = (
            got["supersedes"] == target
            and target is not None
            and Memory.objects.get(pk=existing[target].pk).content == candidate.content
        )
    return got, corrected


def _command(case: dict[str, Any], *, tenant_id: int, existing: list[Memory]) -> dict[str, Any]:
    """Run the person's command; "deleted" when exactly the existing memories named are gone."""
    command = case["command"]
    result = command_run(
        tenant_id=tenant_id,
        user_id=command.get("user_id", EVAL_USER),
        actor="evaluate_policy",
        text=command["text"],
        confirm=bool(command.get("confirm", True)),
    )
    statuses = [Memory.objects.get(pk=m.pk).status for m in existing]
    deleted = [index for index, status in enumerate(statuses) if status == "deleted"]
    wanted = sorted(case["expected"].get("deleted", []))
    return {
        "decision": "deleted" if deleted and deleted == wanted else "not_deleted",
        "deleted": deleted,
        "intent": result.plan.intent.value,
    }


def run_case(case: dict[str, Any], index: int) -> Outcome:
    level = (case.get("candidate") or {}).get("scope", {}).get("level", "user")
    got: dict[str, Any] = {}
    corrected: bool | None = None
    try:
        with transaction.atomic():
            tenant = tenant_create(slug=f"eval-{index}", actor="evaluate_policy")
            existing = [
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
                for item in case.get("existing", [])
            ]
            if "command" in case:
                got = _command(case, tenant_id=tenant.pk, existing=existing)
            else:
                got, corrected = _write(case, tenant_id=tenant.pk, existing=existing)
            raise _Rollback
    except _Rollback:
        pass
    return Outcome(
        case["id"],
        case["expected"],
        got,
        level,
        set=case.get("set", ""),
        split=case.get("split", ""),
        label=case.get("class", ""),
        kind="command" if "command" in case else "write",
        corrected=corrected,
    )


def evaluate(cases: Iterable[dict[str, Any]]) -> Report:
    report = Report()
    for index, case in enumerate(cases):
        report.outcomes.append(run_case(case, index))
    return report
