"""Phase 1 extraction against labelled conversations (``fixtures/extraction_eval.md`` is the format).

Each conversation is replayed in a throwaway tenant (rolled back at the end): its subject (paused when
``actor.memory_paused``), its ``existing`` memories, then its sessions in order — created with their app,
workspace, ``dont_save`` and sub-agent flag, their events appended (a ``state_delta`` becomes the task's
state through the task-state service), ended. Phase 1 then runs as the ``extract`` job does, once, and
every candidate it proposes to the write pipeline is collected with its session and the decision.

Scoring (the format's "Matching and scoring"): recall over the expected items (not ``deduplicated``),
precision over the candidates (a second candidate for an item already found is a false positive; one
matching ``may_yield`` is neither), decision and level accuracy over the found items, deduplicated items
met when no new row appears, ``must_not_yield`` violations, and leaks: every ``forbidden_values`` string
found in a candidate, a stored memory or version, an audit row of the tenant or a log line written during
the run. Figures per split (``dev`` to tune on, ``holdout`` to report) and per class.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.forms.models import model_to_dict

from audit.models import AuditEvent
from conversations.extraction.rules import Proposal
from conversations.extraction.run import extract_run
from conversations.models import Session
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import SessionChange, session_create, session_update
from conversations.services.tasks import task_state_update
from conversations.tasks_state import TASK_FIELDS
from conversations.vocabulary import ApprovalStatus
from governance.pipeline.base import Scope
from governance.services.tenancy import tenant_create
from governance.vocabulary import DecisionKind, Level
from memories.models import Memory, MemoryVersion
from memories.services.records import NewMemory, memory_create
from memories.services.subjects import subject_set_paused
from memories.services.write import WriteResult

ACTOR = "system:evaluate_extraction"
SPLITS = ("dev", "holdout")
APPROVALS = frozenset(s.value for s in ApprovalStatus)


class EvalFileError(ValueError):
    pass


def load_conversations(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvalFileError(f"line {number}: not JSON ({exc.msg})") from None
        for name in ("id", "user_id", "sessions", "expected"):
            if name not in row:
                raise EvalFileError(f"line {number}: missing {name!r}")
        rows.append(row)
    if not rows:
        raise EvalFileError("no conversations")
    return rows


def matches(item: dict[str, Any], content: str) -> bool:
    text = content.lower()
    return all(any(word in text for word in group) for group in item["match"])


@dataclass
class _Candidate:
    session_ref: str
    proposal: Proposal
    result: WriteResult | None


@dataclass
class _Captured:
    candidates: dict[str, list[_Candidate]] = field(default_factory=lambda: defaultdict(list))
    logs: list[str] = field(default_factory=list)


class _LogCapture(logging.Handler):
    def __init__(self, sink: list[str]) -> None:
        super().__init__(level=logging.DEBUG)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):  # a record that can't format is no leak
            self.sink.append(record.getMessage())


def _replay(tenant_id: int, conversation: dict[str, Any], refs: dict[Any, tuple[str, str]]) -> None:
    user_id = conversation["user_id"]
    for item in conversation.get("existing", []):
        scope = item.get("scope", {"level": "user"})
        memory_create(
            tenant_id=tenant_id,
            new=NewMemory(
                scope=Scope(Level(scope["level"]), user_id=user_id, project=scope.get("project", "")),
                type=item["type"],
                content=item["content"],
                source_type=item.get("source", {}).get("source_type", "explicit_user_request"),
            ),
            actor=ACTOR,
        )
    if conversation.get("actor", {}).get("memory_paused"):
        subject_set_paused(tenant_id=tenant_id, user_id=user_id, paused=True, actor=ACTOR)
    for spec in conversation["sessions"]:
        session = session_create(
            tenant_id=tenant_id,
            user_id=user_id,
            app=spec.get("app") or "chat",
            workspace=spec.get("workspace", ""),
            dont_save=bool(spec.get("dont_save")),
            subagent=bool(spec.get("subagent")),
            actor=ACTOR,
        )
        refs[session.pk] = (conversation["id"], spec["ref"])
        tasks: dict[str, dict[str, Any]] = {}
        for event in spec["events"]:
            task_id = event.get("task_id", "")
            session_events_append(
                tenant_id=tenant_id,
                session_id=session.pk,
                events=[NewEvent(kind=event["kind"], content=event["content"], task_id=task_id)],
                actor=ACTOR,
            )
            if event.get("state_delta") and task_id:
                state = tasks.setdefault(task_id, {})
                state.update({k: v for k, v in event["state_delta"].items() if k in TASK_FIELDS})
                if state.get("approval_status") not in APPROVALS:
                    # The set names its waits more finely ("waiting_for_dba"); the task state has four.
                    state["approval_status"] = ApprovalStatus.PENDING.value
                task_state_update(
                    tenant_id=tenant_id, session_id=session.pk, task_id=task_id, values=dict(state), actor=ACTOR
                )
        session_update(tenant_id=tenant_id, session_id=session.pk, change=SessionChange(state="ended"), actor=ACTOR)


def _artifacts(tenant_id: int, captured: _Captured) -> list[str]:
    """Everything extraction derived or wrote, as text, for the leak check."""
    texts = [c.proposal.content for cands in captured.candidates.values() for c in cands]
    texts += [m.readable_content or "" for m in Memory.objects.filter(tenant_id=tenant_id)]
    texts += [v.readable_content or "" for v in MemoryVersion.objects.filter(tenant_id=tenant_id)]
    texts += [
        json.dumps(model_to_dict(row), default=str, ensure_ascii=False)
        for row in AuditEvent.objects.filter(tenant_id=tenant_id)
    ]
    return texts + captured.logs


def _score(conversation: dict[str, Any], candidates: list[_Candidate], leaks: int) -> dict[str, Any]:
    expected = [e for e in conversation["expected"] if not e.get("deduplicated")]
    dedup = [e for e in conversation["expected"] if e.get("deduplicated")]
    found: dict[int, _Candidate] = {}
    found_untyped: set[int] = set()
    tp = fp = 0
    false_positives: list[str] = []
    for cand in candidates:
        content, ctype = cand.proposal.content, cand.proposal.type
        sessions_ok = [
            i
            for i, e in enumerate(expected)
            if matches(e, content) and cand.session_ref in {e.get("from_session"), *e.get("seen_in", [])}
        ]
        found_untyped.update(sessions_ok)
        fresh = [i for i in sessions_ok if expected[i]["type"] == ctype and i not in found]
        if fresh:
            tp += 1
            for i in fresh:
                found[i] = cand
            continue
        if any(matches(m, content) for m in conversation.get("may_yield", [])):
            continue
        if any(matches(e, content) and e["type"] == ctype for e in dedup):
            decision = cand.result.decision if cand.result else None
            if decision is not None and decision.deduplicated:
                continue
        fp += 1
        false_positives.append(f"{cand.proposal.rule}:{ctype}")
    decisions = levels = 0
    for i, cand in found.items():
        decision = cand.result.decision.kind if cand.result else DecisionKind.REJECT
        decisions += decision == expected[i]["decision"]
        levels += cand.proposal.level == expected[i]["level"]
    dedup_met = 0
    for item in dedup:
        hits = [c for c in candidates if matches(item, c.proposal.content) and c.proposal.type == item["type"]]
        dedup_met += all(c.result is None or c.result.decision.deduplicated or not c.result.memory for c in hits)
    violations = [
        item["reason"]
        for item in conversation.get("must_not_yield", [])
        for c in candidates
        if matches(item, c.proposal.content)
    ]
    missed = [f"{e['type']}:{e['source_type']}" for i, e in enumerate(expected) if i not in found]
    return {
        "expected": len(expected),
        "found": len(found),
        "found_untyped": len(found_untyped),
        "candidates": len(candidates),
        "tp": tp,
        "fp": fp,
        "decisions_right": decisions,
        "levels_right": levels,
        "dedup": len(dedup),
        "dedup_met": dedup_met,
        "violations": violations,
        "leaks": leaks,
        "missed": missed,
        "false_positives": false_positives,
    }


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    total = defaultdict(int)
    for row in rows:
        for key in ("expected", "found", "found_untyped", "candidates", "tp", "fp", "decisions_right",
                    "levels_right", "dedup", "dedup_met", "leaks"):  # fmt: skip
            total[key] += row[key]
        total["violations"] += len(row["violations"])
    return {
        "conversations": len(rows),
        "precision": _ratio(total["tp"], total["tp"] + total["fp"]),
        "recall": _ratio(total["found"], total["expected"]),
        "recall_ignoring_type": _ratio(total["found_untyped"], total["expected"]),
        "decision_accuracy": _ratio(total["decisions_right"], total["found"]),
        "level_accuracy": _ratio(total["levels_right"], total["found"]),
        "dedup_met_rate": _ratio(total["dedup_met"], total["dedup"]),
        "must_not_yield_violations": total["violations"],
        "restricted_leaks": total["leaks"],
        **dict(total),
    }


def evaluate_extraction(conversations: list[dict[str, Any]]) -> dict[str, Any]:
    """Replay, extract, score; everything rolled back. The figures overall, per split and per class."""
    with transaction.atomic():
        result = _run(conversations)
        transaction.set_rollback(True)
    return result


def _run(conversations: list[dict[str, Any]]) -> dict[str, Any]:
    tenant = tenant_create(slug=f"exeval-{secrets.token_hex(4)}", actor=ACTOR)
    refs: dict[Any, tuple[str, str]] = {}
    for conversation in conversations:
        _replay(tenant.pk, conversation, refs)
    captured = _Captured()

    def observe(session: Session, proposal: Proposal, result: WriteResult | None) -> None:
        conversation_id, ref = refs[session.pk]
        captured.candidates[conversation_id].append(_Candidate(ref, proposal, result))

    handler = _LogCapture(captured.logs)
    root = logging.getLogger()
    root.addHandler(handler)
    previous = root.level
    root.setLevel(logging.DEBUG)
    try:
        while extract_run(tenant_id=tenant.pk, batch_size=500, observe=observe).has_more:
            pass
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)
    artifacts = [text.lower() for text in _artifacts(tenant.pk, captured)]
    rows, by_split, by_class = [], defaultdict(list), defaultdict(list)
    for conversation in conversations:
        forbidden = [value.lower() for value in conversation.get("forbidden_values", [])]
        leaks = sum(1 for value in forbidden for text in artifacts if value in text)
        row = _score(conversation, captured.candidates.get(conversation["id"], []), leaks)
        row["id"], row["class"], row["split"] = (
            conversation["id"],
            conversation.get("class", ""),
            conversation.get("split", ""),
        )
        rows.append(row)
        by_split[row["split"]].append(row)
        by_class[row["class"]].append(row)
    return {
        **_figures(rows),
        "by_split": {name: _figures(group) for name, group in sorted(by_split.items())},
        "by_class": {name: _figures(group) for name, group in sorted(by_class.items())},
        "mistakes": [
            {k: row[k] for k in ("id", "split", "missed", "false_positives", "violations", "leaks")}
            for row in rows
            if row["missed"] or row["false_positives"] or row["violations"] or row["leaks"]
        ],
    }
