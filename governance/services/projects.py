"""Projects and who is in them. A project's approved rules are read only by its members.

Membership is checked on every read (``memories.read.scope``), so adding or removing a person
takes effect at their very next context call. Removal archives nothing: the project's rules are
shared and stay; a person's own memories tagged with the project are theirs and stay too.
Every change is audited in its own transaction, naming the project by its row id: the audit log takes
ids and codes only, and a project's own id is whatever agents put in a scope.
"""

from __future__ import annotations

from django.db import transaction

from audit.events import Event
from audit.services import audit_record
from governance.models import Membership, Project, ProjectMembership, Tenant
from governance.services.people import PeopleError


@transaction.atomic
def project_create(*, tenant: Tenant, slug: str, name: str = "", actor: str) -> Project:
    if Project.objects.filter(tenant=tenant, slug=slug).exists():
        raise PeopleError("project_exists", "A project with that id exists already.")
    project = Project.objects.create(tenant=tenant, slug=slug, name=name or slug)
    audit_record(
        tenant_id=tenant.pk,
        event=Event.MEMBERSHIP_CHANGED,
        actor=actor,
        details={"project_id": project.pk, "change": "project_created"},
    )
    return project


@transaction.atomic
def project_member_add(*, project: Project, membership: Membership, actor: str) -> None:
    if membership.tenant_id != project.tenant_id:
        raise PeopleError("other_tenant", "That person is not in this tenant.")
    _, created = ProjectMembership.objects.get_or_create(project=project, membership=membership)
    if created:
        _audit_member(project, membership, change="project_member", actor=actor)


@transaction.atomic
def project_member_remove(*, project: Project, membership: Membership, actor: str) -> bool:
    """Take a person off a project; returns whether they were on it (no audit event if not)."""
    removed, _ = ProjectMembership.objects.filter(project=project, membership=membership).delete()
    if removed:
        _audit_member(project, membership, change="project_removed", actor=actor)
    return bool(removed)


def _audit_member(project: Project, membership: Membership, *, change: str, actor: str) -> None:
    audit_record(
        tenant_id=project.tenant_id,
        event=Event.MEMBERSHIP_CHANGED,
        actor=actor,
        subject_id=membership.subject_id,
        details={"project_id": project.pk, "change": change},
    )
