"""Tenants, teams, people and agent keys. Every change is audited in its own transaction."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone
from guardian.shortcuts import assign_perm, remove_perm

from audit.events import Event
from audit.services import audit_record
from governance.agents import generate_key
from governance.models import AgentClient, Membership, Team, TeamMembership, Tenant, all_agent_scopes
from governance.policy import default_policy_document, snapshot_from_document
from governance.services.policy import policy_version_insert
from governance.vocabulary import AgentScope, Role

AGENT_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,99}$")

ROLE_PERMISSIONS = {
    Role.TENANT_ADMIN.value: ("governance.administer_tenant",),
    Role.COMPLIANCE_OFFICER.value: ("governance.audit_tenant",),
}


@transaction.atomic
def tenant_create(*, slug: str, name: str = "", actor: str) -> Tenant:
    tenant = Tenant.objects.create(slug=slug, name=name or slug)
    document = default_policy_document()
    snapshot_from_document(document, version=1)  # refuse a broken default before it is stored
    policy_version_insert(tenant=tenant, version=1, document=document, reason="default policy", actor=actor)
    audit_record(tenant_id=tenant.pk, event=Event.TENANT_CREATED, actor=actor, policy_version=1)
    return tenant


@transaction.atomic
def team_create(*, tenant: Tenant, slug: str, name: str = "", actor: str) -> Team:
    team = Team.objects.create(tenant=tenant, slug=slug, name=name or slug)
    audit_record(
        tenant_id=tenant.pk,
        event=Event.MEMBERSHIP_CHANGED,
        actor=actor,
        details={"team": slug, "change": "team_created"},
    )
    return team


def _sync_role_permissions(membership: Membership) -> None:
    for role, perms in ROLE_PERMISSIONS.items():
        for perm in perms:
            if membership.role == role:
                assign_perm(perm, membership.user, membership.tenant)
            else:
                remove_perm(perm, membership.user, membership.tenant)


@transaction.atomic
def membership_set(
    *, tenant: Tenant, user: AbstractUser, role: str, subject_id: str | None = None, actor: str
) -> Membership:
    """Add a person to a tenant or change their role (object permissions follow the role)."""
    if role not in {value for value, _ in Membership._meta.get_field("role").choices}:
        raise ValueError(f"unknown role {role!r}")
    membership, created = Membership.objects.get_or_create(
        tenant=tenant, user=user, defaults={"role": role, "subject_id": subject_id or user.get_username()}
    )
    if not created and membership.role != role:
        membership.role = role
        membership.save(update_fields=["role"])
    _sync_role_permissions(membership)
    audit_record(
        tenant_id=tenant.pk,
        event=Event.MEMBERSHIP_CHANGED,
        actor=actor,
        subject_id=membership.subject_id,
        details={"role": role, "change": "added" if created else "role_set"},
    )
    return membership


@transaction.atomic
def team_member_add(*, team: Team, membership: Membership, is_owner: bool = False, actor: str) -> None:
    link, _ = TeamMembership.objects.get_or_create(team=team, membership=membership)
    if link.is_owner != is_owner:
        link.is_owner = is_owner
        link.save(update_fields=["is_owner"])
    audit_record(
        tenant_id=team.tenant_id,
        event=Event.MEMBERSHIP_CHANGED,
        actor=actor,
        subject_id=membership.subject_id,
        details={"team": team.slug, "change": "team_owner" if is_owner else "team_member"},
    )


def user_create(*, username: str, password: str | None, email: str = "") -> AbstractUser:
    user_model = get_user_model()
    user = user_model(username=username, email=email)
    if password:
        user.set_password(password)
    else:
        user.set_unusable_password()
    user.save()
    return user


@transaction.atomic
def _checked_scopes(scopes: Iterable[str]) -> list[str]:
    chosen = sorted(set(scopes))
    unknown = set(chosen) - {scope.value for scope in AgentScope}
    if unknown:
        raise ValueError(f"scopes: unknown {', '.join(sorted(unknown))}")
    return chosen


def agent_key_create(
    *, tenant: Tenant, name: str, actor: str, scopes: Iterable[str] | None = None
) -> tuple[AgentClient, str]:
    """Create an agent client; returns it with its key, which is never stored or shown again.

    ``scopes`` defaults to every scope; a retrieval-only agent gets ``READ_ONLY_SCOPES``.
    """
    if not AGENT_NAME.match(name):
        raise ValueError("agent name: use 1-100 lowercase letters, digits, '-', '_' or '.'")
    chosen = _checked_scopes(all_agent_scopes() if scopes is None else scopes)
    full, prefix, key_hash = generate_key()
    client = AgentClient.objects.create(tenant=tenant, name=name, key_prefix=prefix, key_hash=key_hash, scopes=chosen)
    audit_record(
        tenant_id=tenant.pk,
        event=Event.AGENT_KEY_CREATED,
        actor=actor,
        details={"agent": name, "key_prefix": prefix, "scopes": chosen},
    )
    return client, full


@transaction.atomic
def agent_scopes_set(*, client: AgentClient, scopes: Iterable[str], actor: str) -> AgentClient:
    """Replace what the key may call (REST and MCP alike); takes effect on its next request."""
    chosen = _checked_scopes(scopes)
    client = AgentClient.objects.select_for_update().get(pk=client.pk)
    if sorted(client.scopes) == chosen:
        return client
    client.scopes = chosen
    client.save(update_fields=["scopes"])
    audit_record(
        tenant_id=client.tenant_id,
        event=Event.AGENT_RIGHTS_CHANGED,
        actor=actor,
        details={"agent": client.name, "key_prefix": client.key_prefix, "scopes": chosen},
    )
    return client


@transaction.atomic
def agent_key_revoke(*, client: AgentClient, actor: str) -> AgentClient:
    if client.revoked_at is None:
        client.revoked_at = timezone.now()
        client.save(update_fields=["revoked_at"])
        audit_record(
            tenant_id=client.tenant_id,
            event=Event.AGENT_KEY_REVOKED,
            actor=actor,
            details={"agent": client.name, "key_prefix": client.key_prefix},
        )
    return client


@transaction.atomic
def agent_key_rotate(*, client: AgentClient, actor: str) -> tuple[AgentClient, str]:
    """Give the agent a new key; the old one stops working at once."""
    full, prefix, key_hash = generate_key()
    old_prefix = client.key_prefix
    client.key_prefix, client.key_hash, client.revoked_at = prefix, key_hash, None
    client.save(update_fields=["key_prefix", "key_hash", "revoked_at"])
    audit_record(
        tenant_id=client.tenant_id,
        event=Event.AGENT_KEY_CREATED,
        actor=actor,
        details={"agent": client.name, "key_prefix": prefix, "replaces": old_prefix},
    )
    return client, full
