"""Reads for "My memories": the shared rules that shape a person's answers, read-only.

The same reach as the read path's (memories.read.scope): tenant rules for everyone, team rules for the
teams the person is in, project rules for the projects they are a member of — active ones only. Each
comes with why it applies to this person and who approved it (the rule's approval rows).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from governance.models import Membership, ProjectMembership, TeamMembership
from governance.vocabulary import Level, Status
from memories.models import Memory, RuleDecision

RULES_SHOWN = 100


@dataclass
class SharedRule:
    memory: Memory
    applies: str  # "tenant" | "team" | "project": why it reaches this person
    where: str  # the team's or project's name ("" for the whole organization)
    approved_by: list[str] = field(default_factory=list)


def shared_rules_for_person(*, membership: Membership) -> list[SharedRule]:
    teams = dict(TeamMembership.objects.filter(membership=membership).values_list("team__slug", "team__name"))
    projects = dict(
        ProjectMembership.objects.filter(membership=membership).values_list("project__slug", "project__name")
    )
    reach = (
        Q(level=Level.TENANT)
        | Q(level=Level.TEAM, team__in=list(teams))
        | Q(level=Level.PROJECT, project__in=list(projects))
    )
    rules = list(
        Memory.objects.filter(tenant_id=membership.tenant_id, user_id="", status=Status.ACTIVE)
        .filter(reach)
        .select_related("agent")
        .order_by("level", "-updated_at")[:RULES_SHOWN]
    )
    approvals: dict[object, list[str]] = {}
    decisions = RuleDecision.objects.filter(
        tenant_id=membership.tenant_id, memory__in=rules, kind=RuleDecision.Kind.APPROVE
    ).values_list("memory_id", "actor")
    for memory_id, actor in decisions:
        approvals.setdefault(memory_id, []).append(actor.partition(":")[2] or actor)
    shared = []
    for rule in rules:
        if rule.level == Level.TEAM:
            applies, where = "team", teams.get(rule.team, rule.team)
        elif rule.level == Level.PROJECT:
            applies, where = "project", projects.get(rule.project, rule.project)
        else:
            applies, where = "tenant", ""
        shared.append(SharedRule(rule, applies, where, approvals.get(rule.pk, [])))
    return shared
