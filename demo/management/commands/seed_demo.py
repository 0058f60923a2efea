"""Idempotent demo data: tenants demo and acme, a person for every role, a few memories of each type, and a
few sessions of alice's (one compacted, one forked)."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from demo.sessions import seed_demo_sessions
from governance.agents import client_for_key
from governance.models import AgentClient, Membership, Project, Team, Tenant
from governance.pipeline.base import Candidate, Scope
from governance.services.projects import project_create, project_member_add
from governance.services.tenancy import (
    agent_key_create,
    agent_key_rotate,
    membership_set,
    team_create,
    team_member_add,
    tenant_create,
    user_create,
)
from governance.vocabulary import Level, MemoryType, Role, SourceType
from memories.models import Memory
from memories.services.rules import rule_approve
from memories.services.write import memory_write

DEMO_PASSWORD = "memgov-demo"
ACTOR = "system:seed_demo"

PEOPLE = {
    "demo": [
        ("alice", Role.MEMBER, "ai-platform", False),
        ("bob", Role.MEMBER, "ai-platform", False),
        ("carol", Role.TENANT_ADMIN, "ai-platform", True),
        ("dave", Role.COMPLIANCE_OFFICER, None, False),
        # A second admin: rules need four eyes, so frank's proposals wait for carol and vice versa.
        ("frank", Role.TENANT_ADMIN, None, False),
    ],
    "acme": [("erin", Role.MEMBER, None, False)],
}

# (tenant, key, scope, type, content, source, sensitivity)
# Projects and their members: only members are given a project's shared rules.
PROJECTS = {"demo": {"dispatch-docs": ("alice", "bob")}}

MEMORIES = [
    (
        "demo",
        "alice-pref-zh",
        Scope(Level.USER, user_id="alice"),
        "user_preference",
        "用户偏好中文、分步骤、带检查清单的回答。",
        "explicit_user_confirmation",
        "low",
    ),
    (
        "demo",
        "alice-pref-tables",
        Scope(Level.USER, user_id="alice"),
        "user_preference",
        "Prefers Markdown tables when comparing options.",
        "explicit_user_request",
        "low",
    ),
    (
        "demo",
        "alice-profile",
        Scope(Level.USER, user_id="alice"),
        "user_profile",
        "Maintains the dispatch-docs documentation site as a backend engineer.",
        "explicit_user_request",
        "medium",
    ),
    (
        "demo",
        "alice-constraint",
        Scope(Level.USER, user_id="alice"),
        "constraint",
        "Never deploy to production without a code review.",
        "explicit_user_request",
        "low",
    ),
    (
        "demo",
        "alice-project-rule",
        Scope(Level.PROJECT, user_id="alice", project="dispatch-docs"),
        "project_rule",
        "After changing AI Wiki content, update docs/changelog.md.",
        "explicit_user_request",
        "low",
    ),
    (
        "demo",
        "alice-task",
        Scope(Level.TASK, user_id="alice", task_id="task-wiki-42"),
        "task_state",
        "任务进度：已补充 AI Wiki 概览，下一步补充记忆治理章节。",
        "task_state_machine",
        "low",
    ),
    (
        "demo",
        "alice-session",
        Scope(Level.SESSION, user_id="alice", session_id="sess-demo-1"),
        "temporary_context",
        "This session is about the annual offsite budget.",
        "user_statement",
        "low",
    ),
    (
        "demo",
        "bob-pref",
        Scope(Level.USER, user_id="bob"),
        "user_preference",
        "Likes short answers with a TL;DR line first.",
        "explicit_user_request",
        "low",
    ),
    (
        "demo",
        "bob-correction",
        Scope(Level.USER, user_id="bob"),
        "correction",
        "Bob's region is EU, not US.",
        "human_agent_correction",
        "low",
    ),
    (
        "demo",
        "team-rule",
        Scope(Level.TEAM, team="ai-platform"),
        "organization_rule",
        "Pull requests must include a screenshot of the passing tests.",
        "admin_console",
        "low",
    ),
    (
        "demo",
        "project-rule",
        Scope(Level.PROJECT, project="dispatch-docs"),
        "project_rule",
        "dispatch-docs: after committing, push to both lab/main and origin/main.",
        "admin_console",
        "low",
    ),
    (
        "acme",
        "erin-pref",
        Scope(Level.USER, user_id="erin"),
        "user_preference",
        "Prefers answers in English with code samples in TypeScript.",
        "explicit_user_request",
        "low",
    ),
]


class Command(BaseCommand):
    help = "Create (or bring up to date) the demo tenants, people, memories and agent keys. Idempotent."

    def handle(self, *args: object, **options: object) -> None:
        with transaction.atomic():
            tenants = {slug: self._tenant(slug) for slug in PEOPLE}
            for slug, people in PEOPLE.items():
                for username, role, team_slug, owner in people:
                    self._person(tenants[slug], username, role, team_slug, owner)
            for slug, projects in PROJECTS.items():
                for project_slug, usernames in projects.items():
                    self._project(tenants[slug], project_slug, usernames)
        keys = {slug: self._agent_key(tenant) for slug, tenant in tenants.items()}
        for tenant_slug, key, scope, type_, content, source, sensitivity in MEMORIES:
            self._memory(tenants[tenant_slug], key, scope, type_, content, source, sensitivity)
        self._pending_confirmation(tenants["demo"])
        self._pending_rule(tenants["demo"])
        seed_demo_sessions(tenants["demo"])
        self.stdout.write(
            "Demo people (password memgov-demo): alice, bob (members of ai-platform and dispatch-docs), "
            "carol and frank (tenant admins), dave (compliance officer) in 'demo'; erin (member) in 'acme'."
        )
        for slug, key in keys.items():
            self.stdout.write(f"agent key for tenant {slug}: {key}")

    def _tenant(self, slug: str) -> Tenant:
        return Tenant.objects.filter(slug=slug).first() or tenant_create(
            slug=slug, name=f"{slug.title()} (demo)", actor=ACTOR
        )

    def _person(self, tenant: Tenant, username: str, role: Role, team_slug: str | None, owner: bool) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            user = user_create(username=username, password=DEMO_PASSWORD)
        membership = Membership.objects.filter(tenant=tenant, user=user).first()
        if membership is None or membership.role != role:
            membership = membership_set(tenant=tenant, user=user, role=role, actor=ACTOR)
        if team_slug:
            team = Team.objects.filter(tenant=tenant, slug=team_slug).first() or team_create(
                tenant=tenant, slug=team_slug, name="AI Platform", actor=ACTOR
            )
            if not membership.teammembership_set.filter(team=team, is_owner=owner).exists():
                team_member_add(team=team, membership=membership, is_owner=owner, actor=ACTOR)

    def _project(self, tenant: Tenant, slug: str, usernames: tuple[str, ...]) -> None:
        project = Project.objects.filter(tenant=tenant, slug=slug).first() or project_create(
            tenant=tenant, slug=slug, actor=ACTOR
        )
        for membership in Membership.objects.filter(tenant=tenant, user__username__in=usernames):
            project_member_add(project=project, membership=membership, actor=ACTOR)

    def _memory(self, tenant: Tenant, key: str, scope: Scope, type_: str, content: str, source: str, sens: str) -> None:
        """Through the write pipeline, as the demo agent relaying the person: the decision's real reason and
        the policy's lifetime (a session or task memory expires), exactly as a real write. A shared rule
        is proposed on carol's word and approved by frank (four eyes), as in the console."""
        del sens  # what the table expects; the pipeline's detector decides, as for any write
        message_id = f"seed-{key}"
        if Memory.objects.filter(tenant=tenant, source_message_id=message_id).exists():
            return
        shared = not scope.user_id
        result = memory_write(
            tenant_id=tenant.pk,
            candidate=Candidate(
                content=content,
                scope=scope,
                source_type=SourceType.EXPLICIT_USER_REQUEST if shared else SourceType(source),
                type=MemoryType(type_),
                confidence=0.95,
                source_message_id=message_id,
            ),
            actor_label="agent:demo-agent",
            agent=AgentClient.objects.filter(tenant=tenant, name="demo-agent").first(),
            on_behalf_of="carol" if shared else scope.user_id,
        )
        if result.memory is None:
            raise CommandError(f"the demo memory {key!r} was refused: {result.decision.reason_code}")
        if shared and result.confirmation is not None:
            rule_approve(tenant_id=tenant.pk, memory_id=result.memory.pk, actor="user:frank")

    def _agent_key(self, tenant: Tenant) -> str:
        """The demo agent's key, kept in var/ so that running seed_demo again prints the same key."""
        path = Path(settings.VAR_DIR) / "demo-agent-keys.json"
        known = json.loads(path.read_text()) if path.exists() else {}
        key = known.get(tenant.slug)
        client = AgentClient.objects.filter(tenant=tenant, name="demo-agent").first()
        if key and client and client_for_key(key) == client:
            return key
        if client is not None:
            _, key = agent_key_rotate(client=client, actor=ACTOR)
        else:
            _, key = agent_key_create(tenant=tenant, name="demo-agent", actor=ACTOR)
        known[tenant.slug] = key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(known, indent=2))
        path.chmod(0o600)
        return key

    def _pending_confirmation(self, tenant: Tenant) -> None:
        """One thing the demo agent inferred about alice, waiting in her "To confirm" inbox."""
        message_id = "seed-alice-pending"
        if Memory.objects.filter(tenant=tenant, source_message_id=message_id).exists():
            return
        memory_write(
            tenant_id=tenant.pk,
            candidate=Candidate(
                content="Prefers answers that start with a one-line summary.",
                scope=Scope(Level.USER, user_id="alice"),
                source_type=SourceType.AGENT_INFERENCE,
                type=MemoryType.USER_PREFERENCE,
                confidence=0.8,
                source_message_id=message_id,
            ),
            actor_label="agent:demo-agent",
            agent=AgentClient.objects.filter(tenant=tenant, name="demo-agent").first(),
        )

    def _pending_rule(self, tenant: Tenant) -> None:
        """An organization rule the demo agent proposed on frank's word, waiting for carol's approval."""
        message_id = "seed-frank-rule"
        if Memory.objects.filter(tenant=tenant, source_message_id=message_id).exists():
            return
        memory_write(
            tenant_id=tenant.pk,
            candidate=Candidate(
                content="Commit messages are written in English, in the imperative mood.",
                scope=Scope(Level.TENANT),
                source_type=SourceType.EXPLICIT_USER_REQUEST,
                type=MemoryType.ORGANIZATION_RULE,
                confidence=0.95,
                source_message_id=message_id,
            ),
            actor_label="agent:demo-agent",
            agent=AgentClient.objects.filter(tenant=tenant, name="demo-agent").first(),
            on_behalf_of="frank",
        )
