"""The read-path evaluation behind ``manage.py evaluate_read``: scoped retrieval against labelled scenarios.

The file is JSONL; each line is one object with a ``kind``:

``{"kind": "world", "tenants": {"demo": {"teams": {"ai-platform": ["alice", "bob"]}, "projects": {"ai-wiki":
["alice"]}, "members": ["alice", "bob", "dave"], "paused": ["frank"]}, …}}`` — once, first: the tenants (by a
short name), their members (subject ids, each a person with a membership), team and project memberships,
and subjects who paused memory.

``{"kind": "memory", "ref": "a-short", "tenant": "demo", "content": "Prefers short answers", "user_id": "alice",
"level": "user", "type": "user_preference", "source_type": "explicit_user_request", "confidence": 0.9,
"status": "active", "team": "", "project": "", "session_id": "", "task_id": "", "expires_in_hours": -1,
"age_days": 3}`` — a memory (only ``ref``, ``tenant`` and ``content`` are required; a negative
``expires_in_hours`` makes a memory that expired without being swept).

``{"kind": "scenario", "id": "…", "tenant": "demo", "caller": "agent" | "person:<subject>", "scope":
{"user_id": …, "team": …, "project": …, "session_id": …, "task_id": …}, "query": "…", "instruction": "…",
"types": [], "top_k": 5, "token_budget": 1200, "relevant": [refs], "forbidden": [refs],
"conflicts": [refs], "cross_scope": false}`` — one context read and its labels: ``relevant`` memories
should be injected, ``forbidden`` ones must not be; ``conflicts`` (optional) are the memories the
instruction should be found to contradict; ``cross_scope`` marks a read that must be refused.

Everything runs in one transaction that is rolled back, in tenants with fresh slugs.

Optional scenario keys, used to break the figures down: ``class`` (what the scenario tests), ``lang``
(``{"query": "zh"|"en"|"mix", "memory": …}``) and ``split`` (``dev`` or ``holdout``).

A context holds the memories ranked as *about the query* (at most ``top_k``) and, in their own block,
the subject's *standing guidance* (preferences and constraints, at most ``standing_k``; the same for
every query: docs/retrieval.md). Precision measures the ranking, so it counts the first part only;
recall counts what the agent is given, both parts; ``ranked_recall_at_k`` counts the first part only.

Metrics (macro-averaged over scenarios): ``precision_at_k`` (ranked and relevant / ranked, over
scenarios that ranked something), ``recall_at_k`` (injected and relevant / relevant, over scenarios
with relevant memories), ``ranked_recall_at_k``, ``mrr`` (1 / the position of the first relevant memory
in ``items``, 0 when none is injected, over scenarios with relevant memories),
``cross_lingual_recall_at_5`` (recall within the first 5 items, over scenarios whose class starts with
``cross_lingual``), ``empty_rate`` (scenarios with nothing relevant that ranked nothing as relevant);
over all injected items: ``stale_memory_rate`` (not active when seeded, expired by ``expires_at``, or
of a paused subject), ``cross_tenant_leak_rate`` (another tenant's), ``cross_subject_leak_rate``
(another subject's private memory), ``forbidden_rate`` (and ``ranked_forbidden_rate`` over the ranked
part); plus ``conflict_accuracy`` and ``cross_scope_accuracy`` over the scenarios that label them.
``by_class``, ``by_split``, ``by_lang`` and ``by_class_split`` give the scenario figures per group.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from audit.events import Event
from audit.models import AuditEvent
from governance.models import AgentClient, Membership, Tenant
from governance.pipeline.base import Scope
from governance.services.projects import project_create, project_member_add
from governance.services.tenancy import (
    agent_key_create,
    membership_set,
    team_create,
    team_member_add,
    tenant_create,
    user_create,
)
from governance.vocabulary import Level, Role, Status
from memories.access import Caller
from memories.models import Memory
from memories.read.context import ContextRequest, memory_context_build
from memories.read.scope import ContextScope
from memories.services.records import NewMemory, memory_create
from memories.services.subjects import subject_set_paused

ACTOR = "system:evaluate_read"


class EvalFileError(ValueError):
    """The evaluation file is malformed; the message names the line and field."""


@dataclass
class EvalSet:
    world: dict[str, Any]
    memories: list[dict[str, Any]]
    scenarios: list[dict[str, Any]]


def load_eval_set(path: Path) -> EvalSet:
    world: dict[str, Any] | None = None
    memories: list[dict[str, Any]] = []
    scenarios: list[dict[str, Any]] = []
    refs: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvalFileError(f"line {number}: not JSON ({exc.msg})") from None
        kind = item.get("kind") if isinstance(item, dict) else None
        if kind == "world":
            world = item
        elif kind == "memory":
            for name in ("ref", "tenant", "content"):
                if not item.get(name):
                    raise EvalFileError(f"line {number}: a memory needs {name!r}")
            if item["ref"] in refs:
                raise EvalFileError(f"line {number}: ref {item['ref']!r} appears twice")
            refs.add(item["ref"])
            memories.append(item)
        elif kind == "scenario":
            for name in ("id", "tenant", "scope"):
                if not item.get(name):
                    raise EvalFileError(f"line {number}: a scenario needs {name!r}")
            scenarios.append(item)
        else:
            raise EvalFileError(f"line {number}: kind must be world, memory or scenario")
    if world is None:
        raise EvalFileError("no world line")
    for scenario in scenarios:
        for label in ("relevant", "forbidden", "conflicts"):
            unknown = set(scenario.get(label, [])) - refs
            if unknown:
                raise EvalFileError(f"scenario {scenario['id']}: unknown refs in {label}: {sorted(unknown)}")
    return EvalSet(world, memories, scenarios)


@dataclass
class _World:
    tenants: dict[str, Tenant] = field(default_factory=dict)
    agents: dict[str, AgentClient] = field(default_factory=dict)
    people: dict[tuple[str, str], Membership] = field(default_factory=dict)
    paused: set[tuple[str, str]] = field(default_factory=set)
    memories: dict[str, Memory] = field(default_factory=dict)
    stale: set[str] = field(default_factory=set)  # refs that must never be injected, whoever asks


def build_world(spec: dict[str, Any], token: str) -> _World:
    world = _World()
    for name, tenant_spec in spec["tenants"].items():
        tenant = tenant_create(slug=f"eval-{token}-{name}"[:63], actor=ACTOR)
        world.tenants[name] = tenant
        world.agents[name], _ = agent_key_create(tenant=tenant, name="eval-agent", actor=ACTOR)
        for subject in tenant_spec.get("members", []):
            user = user_create(username=f"eval-{token}-{name}-{subject}"[:150], password=None)
            world.people[(name, subject)] = membership_set(
                tenant=tenant, user=user, role=Role.MEMBER, subject_id=subject, actor=ACTOR
            )
        for slug, members in tenant_spec.get("teams", {}).items():
            team = team_create(tenant=tenant, slug=slug, actor=ACTOR)
            for subject in members:
                team_member_add(team=team, membership=world.people[(name, subject)], actor=ACTOR)
        for slug, members in tenant_spec.get("projects", {}).items():
            project = project_create(tenant=tenant, slug=slug, actor=ACTOR)
            for subject in members:
                project_member_add(project=project, membership=world.people[(name, subject)], actor=ACTOR)
        for subject in tenant_spec.get("paused", []):
            subject_set_paused(tenant_id=tenant.pk, user_id=subject, paused=True, actor=ACTOR)
            world.paused.add((name, subject))
    return world


def seed_memories(world: _World, memories: list[dict[str, Any]], now: Any) -> None:
    for item in memories:
        tenant = world.tenants[item["tenant"]]
        expires = item.get("expires_in_hours")
        memory = memory_create(
            tenant_id=tenant.pk,
            new=NewMemory(
                scope=Scope(
                    Level(item.get("level", "user")),
                    user_id=item.get("user_id", ""),
                    team=item.get("team", ""),
                    project=item.get("project", ""),
                    session_id=item.get("session_id", ""),
                    task_id=item.get("task_id", ""),
                ),
                type=item.get("type", "user_preference"),
                content=item["content"],
                source_type=item.get("source_type", "explicit_user_request"),
                confidence=float(item.get("confidence", 1.0)),
                expires_at=None if expires is None else now + timedelta(hours=float(expires)),
                status=item.get("status", Status.ACTIVE.value),
            ),
            actor=ACTOR,
        )
        if item.get("age_days"):
            Memory.objects.filter(pk=memory.pk).update(updated_at=now - timedelta(days=float(item["age_days"])))
        world.memories[item["ref"]] = memory
        if (
            memory.status != Status.ACTIVE
            or (memory.expires_at is not None and memory.expires_at <= now)
            or (item["tenant"], memory.user_id) in world.paused
        ):
            world.stale.add(item["ref"])


def scenario_caller(world: _World, scenario: dict[str, Any]) -> Caller:
    tenant_name = scenario["tenant"]
    tenant = world.tenants[tenant_name]
    who = scenario.get("caller", "agent")
    if who == "agent":
        agent = world.agents[tenant_name]
        return Caller(tenant_id=tenant.pk, actor=f"agent:{agent.name}", agent=agent)
    subject = who.removeprefix("person:")
    membership = world.people[(tenant_name, subject)]
    return Caller(tenant_id=tenant.pk, actor=f"user:{subject}", subject_id=subject, membership=membership)


def scenario_request(scenario: dict[str, Any]) -> ContextRequest:
    """The read a scenario line asks for."""
    scope = scenario["scope"]
    return ContextRequest(
        scope=ContextScope(
            user_id=scope.get("user_id", ""),
            team=scope.get("team", ""),
            project=scope.get("project", ""),
            session_id=scope.get("session_id", ""),
            task_id=scope.get("task_id", ""),
        ),
        query=scenario.get("query", ""),
        instruction=scenario.get("instruction", ""),
        types=tuple(scenario.get("types", [])),
        top_k=int(scenario.get("top_k", 5)),
        token_budget=int(scenario.get("token_budget", 1200)),
        **({"standing_k": int(scenario["standing_k"])} if "standing_k" in scenario else {}),
    )


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 1.0


def _rate(count: int, total: int) -> float:
    return round(count / total, 4) if total else 0.0


@dataclass(frozen=True)
class _Row:
    """One scenario's figures (None where the figure doesn't apply to it)."""

    klass: str
    split: str
    lang: str
    precision: float | None  # ranked part; None when nothing was ranked as relevant
    recall: float | None  # everything injected; None without relevant memories
    ranked_recall: float | None
    reciprocal_rank: float | None
    recall_at_5: float | None
    cross_lingual: bool
    empty_when_nothing_relevant: bool | None  # None when something is relevant


def _scenario_row(scenario: dict[str, Any], *, returned: list[str], ranked: list[str], relevant: set[str]) -> _Row:
    lang = scenario.get("lang") or {}
    position = next((i for i, ref in enumerate(returned, start=1) if ref in relevant), None)
    return _Row(
        klass=str(scenario.get("class", "unclassified")),
        split=str(scenario.get("split", "all")),
        lang=f"{lang.get('query', '?')}→{lang.get('memory', '?')}",
        precision=len(relevant.intersection(ranked)) / len(ranked) if ranked else None,
        recall=len(relevant.intersection(returned)) / len(relevant) if relevant else None,
        ranked_recall=len(relevant.intersection(ranked)) / len(relevant) if relevant else None,
        reciprocal_rank=(1 / position if position else 0.0) if relevant else None,
        recall_at_5=len(relevant.intersection(returned[:5])) / len(relevant) if relevant else None,
        cross_lingual=str(scenario.get("class", "")).startswith("cross_lingual"),
        empty_when_nothing_relevant=None if relevant else not ranked,
    )


def _mean_of(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(sum(present) / len(present), 4) if present else None


def _figures(rows: list[_Row]) -> dict[str, Any]:
    empties = [r.empty_when_nothing_relevant for r in rows if r.empty_when_nothing_relevant is not None]
    return {
        "precision_at_k": _mean_of([r.precision for r in rows]) if rows else 1.0,
        "recall_at_k": _mean_of([r.recall for r in rows]) if rows else 1.0,
        "ranked_recall_at_k": _mean_of([r.ranked_recall for r in rows]),
        "mrr": _mean_of([r.reciprocal_rank for r in rows]),
        "cross_lingual_recall_at_5": _mean_of([r.recall_at_5 for r in rows if r.cross_lingual]),
        "empty_rate": _mean_of([float(e) for e in empties]),
    }


def _grouped(rows: list[_Row], key: Any) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[_Row]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return {name: {"scenarios": len(members), **_figures(members)} for name, members in sorted(groups.items())}


def evaluate_read(eval_set: EvalSet) -> dict[str, Any]:
    """Seed the world, run every scenario through ``memory_context_build``, roll back; the metrics."""
    with transaction.atomic():
        result = _run(eval_set)
        transaction.set_rollback(True)
    return result


def _run(eval_set: EvalSet) -> dict[str, Any]:
    now = timezone.now()
    world = build_world(eval_set.world, secrets.token_hex(4))
    seed_memories(world, eval_set.memories, now)
    by_id = {str(m.id): ref for ref, m in world.memories.items()}
    rows: list[_Row] = []
    injected_total = ranked_total = stale = tenant_leaks = subject_leaks = forbidden = ranked_forbidden = 0
    conflict_checks: list[bool] = []
    cross_scope_checks: list[bool] = []
    mismatches: list[dict[str, Any]] = []
    for scenario in eval_set.scenarios:
        caller = scenario_caller(world, scenario)
        scope = scenario["scope"]
        before = AuditEvent.objects.filter(tenant_id=caller.tenant_id, event=Event.CROSS_SCOPE_READ).count()
        result = memory_context_build(caller=caller, request=scenario_request(scenario))
        returned = [by_id.get(item.id, f"unknown:{item.id}") for item in result.items]
        ranked = [by_id.get(item.id, "?") for item in result.items if "standing" not in item.why]
        relevant = set(scenario.get("relevant", []))
        rows.append(_scenario_row(scenario, returned=returned, ranked=ranked, relevant=relevant))
        ranked_total += len(ranked)
        ranked_forbidden += len(set(ranked) & set(scenario.get("forbidden", [])))
        tenant = world.tenants[scenario["tenant"]]
        problems: dict[str, list[str]] = {"stale": [], "other_tenant": [], "other_subject": [], "forbidden": []}
        for ref in returned:
            memory = world.memories.get(ref)
            injected_total += 1
            if memory is None:
                continue
            if ref in world.stale:
                stale += 1
                problems["stale"].append(ref)
            if memory.tenant_id != tenant.pk:
                tenant_leaks += 1
                problems["other_tenant"].append(ref)
            elif memory.user_id and memory.user_id != scope.get("user_id"):
                subject_leaks += 1
                problems["other_subject"].append(ref)
            if ref in scenario.get("forbidden", []):
                forbidden += 1
                problems["forbidden"].append(ref)
        if "conflicts" in scenario:
            got = {by_id.get(c.conflict.memory_id, "?") for c in result.conflicts}
            conflict_checks.append(got == set(scenario["conflicts"]))
            if got != set(scenario["conflicts"]):
                problems["conflicts"] = sorted(got)
        if scenario.get("cross_scope"):
            after = AuditEvent.objects.filter(tenant_id=caller.tenant_id, event=Event.CROSS_SCOPE_READ).count()
            refused = not result.items and not result.rendered and after == before + 1
            cross_scope_checks.append(refused)
            if not refused:
                problems["not_refused"] = returned
        missing = sorted(relevant - set(returned))
        if missing or any(problems.values()):
            mismatches.append({"id": scenario["id"], "returned": returned, "missing": missing, **problems})
    return {
        "scenarios": len(eval_set.scenarios),
        "memories": len(eval_set.memories),
        "injected": injected_total,
        "ranked": ranked_total,
        **_figures(rows),
        "ranked_forbidden_rate": _rate(ranked_forbidden, ranked_total),
        "by_class": _grouped(rows, lambda r: r.klass),
        "by_split": _grouped(rows, lambda r: r.split),
        "by_lang": _grouped(rows, lambda r: r.lang),
        "by_class_split": _grouped(rows, lambda r: f"{r.klass}/{r.split}"),
        "stale_memory_rate": _rate(stale, injected_total),
        "cross_tenant_leak_rate": _rate(tenant_leaks, injected_total),
        "cross_subject_leak_rate": _rate(subject_leaks, injected_total),
        "forbidden_rate": _rate(forbidden, injected_total),
        "conflict_accuracy": _mean([float(ok) for ok in conflict_checks]),
        "cross_scope_accuracy": _mean([float(ok) for ok in cross_scope_checks]),
        "mismatches": mismatches,
    }
