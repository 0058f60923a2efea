"""Migration governance 0003: projects that already have shared rules keep reaching everyone in the tenant."""

from __future__ import annotations

import importlib

from django.apps import apps

from governance.models import Membership, Project
from governance.vocabulary import Level

migration = importlib.import_module("governance.migrations.0003_projects")


def test_projects_named_by_shared_rules_are_registered_with_the_whole_tenant(world, make_memory):
    make_memory(world.demo, "legacy rule", level=Level.PROJECT, project="legacy", type="project_rule")
    make_memory(world.demo, "alice's own note", user_id="alice", level=Level.PROJECT, project="private-notes")
    make_memory(world.acme, "acme rule", level=Level.PROJECT, project="acme-only", type="project_rule")
    migration.register_existing_projects(apps, None)
    migration.register_existing_projects(apps, None)  # idempotent

    legacy = Project.objects.get(tenant=world.demo, slug="legacy")
    assert set(legacy.members.all()) == set(Membership.objects.filter(tenant=world.demo))
    assert set(Project.objects.get(tenant=world.acme, slug="acme-only").members.all()) == {world.erin}
    # a subject's own project memory is not a shared rule: it registers nothing
    assert not Project.objects.filter(slug="private-notes").exists()
    assert not Project.objects.filter(tenant=world.acme, slug="legacy").exists()


def test_a_registered_project_named_with_free_text_can_still_take_members(world, make_memory):
    """Agents may name any project; its membership changes are audited by row id, never by that name."""
    from audit.models import AuditEvent
    from governance.services.projects import project_member_remove

    make_memory(world.demo, "rule", level=Level.PROJECT, project="Legacy Docs (old)", type="project_rule")
    migration.register_existing_projects(apps, None)
    project = Project.objects.get(tenant=world.demo, slug="Legacy Docs (old)")
    assert project_member_remove(project=project, membership=world.bob, actor="t")  # no AuditDetailError
    event = AuditEvent.objects.filter(tenant=world.demo, event="membership_changed").latest("seq")
    assert event.details == {"project_id": project.pk, "change": "project_removed"}
