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
