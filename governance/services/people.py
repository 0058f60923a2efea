"""People in the console: roles and team membership, with the guards a console needs.

``governance.services.tenancy`` does the work (and the auditing); these add what only matters when a
person changes other people: an admin doesn't change their own role (no self-demotion into a tenant
with no admin, no second account to approve one's own rules), and a tenant always keeps an admin.
"""

from __future__ import annotations

from django.db import transaction

from governance.models import Membership, Team, Tenant
from governance.services.tenancy import membership_set, team_create, team_member_add
from governance.vocabulary import Role


class PeopleError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@transaction.atomic
def member_role_change(*, membership: Membership, role: str, acting: Membership) -> Membership:
    if membership.pk == acting.pk:
        raise PeopleError("own_role", "You can't change your own role; ask another admin.")
    # Lock the admins: two admins demoting each other at once must not leave the tenant with none.
    list(Membership.objects.select_for_update().filter(tenant_id=membership.tenant_id, role=Role.TENANT_ADMIN))
    if membership.role == Role.TENANT_ADMIN and role != Role.TENANT_ADMIN:
        admins = Membership.objects.filter(tenant_id=membership.tenant_id, role=Role.TENANT_ADMIN).count()
        if admins <= 1:
            raise PeopleError("last_admin", "The tenant must keep at least one admin.")
    return membership_set(
        tenant=membership.tenant, user=membership.user, role=role, actor=f"user:{acting.user.get_username()}"
    )


def team_add(*, team: Team, membership: Membership, is_owner: bool, acting: Membership) -> None:
    if membership.tenant_id != team.tenant_id:
        raise PeopleError("other_tenant", "That person is not in this tenant.")
    team_member_add(team=team, membership=membership, is_owner=is_owner, actor=f"user:{acting.user.get_username()}")


def team_new(*, tenant: Tenant, slug: str, name: str, acting: Membership) -> Team:
    if Team.objects.filter(tenant=tenant, slug=slug).exists():
        raise PeopleError("team_exists", "A team with that slug exists already.")
    return team_create(tenant=tenant, slug=slug, name=name, actor=f"user:{acting.user.get_username()}")
