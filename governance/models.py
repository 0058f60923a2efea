"""Tenancy, people, agents and the tenant's versioned policy."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from dbkit.ids import new_id
from governance.vocabulary import AgentScope, Role
from vault.fields import EncryptedTextField


class Tenant(models.Model):
    slug = models.SlugField(max_length=63, unique=True)
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        permissions = [
            ("administer_tenant", "Approve rules, edit policy, manage agents and people"),
            ("audit_tenant", "Search and export the tenant's audit log"),
        ]

    def __str__(self) -> str:
        return self.slug


class Team(models.Model):
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="teams")
    slug = models.SlugField(max_length=63)
    name = models.CharField(max_length=200)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "slug"], name="team_unique_slug")]

    def __str__(self) -> str:
        return f"{self.tenant.slug}/{self.slug}"


MEMBERSHIP_ROLES = [
    (Role.MEMBER.value, "Member"),
    (Role.TEAM_OWNER.value, "Team owner"),
    (Role.TENANT_ADMIN.value, "Tenant admin"),
    (Role.COMPLIANCE_OFFICER.value, "Compliance officer"),
]


class Membership(models.Model):
    """A person's place in a tenant. ``subject_id`` is the tenant's own id for them (memories' user_id)."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=32, choices=MEMBERSHIP_ROLES, default=Role.MEMBER.value)
    subject_id = models.CharField(max_length=128)
    teams = models.ManyToManyField(Team, through="TeamMembership", related_name="members")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "user"], name="membership_unique_user"),
            models.UniqueConstraint(fields=["tenant", "subject_id"], name="membership_unique_subject"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tenant} as {self.role}"


class Invitation(models.Model):
    """A tenant admin's offer of a place in the tenant, which the account's owner accepts or declines.

    Addressed to a username that may not exist (yet): creating one tells the admin nothing about
    accounts outside their tenant, and nobody joins a tenant without saying yes.
    """

    class State(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        WITHDRAWN = "withdrawn"
        EXPIRED = "expired"

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    role = models.CharField(max_length=32, choices=MEMBERSHIP_ROLES, default=Role.MEMBER.value)
    subject_id = models.CharField(max_length=128)
    invited_by = models.CharField(max_length=160)
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "username"], condition=models.Q(state="pending"), name="invitation_one_pending"
            ),
        ]
        indexes = [models.Index(fields=["username", "state"], name="invitation_for_account")]


class TeamMembership(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE)
    membership = models.ForeignKey(Membership, on_delete=models.CASCADE)
    is_owner = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "membership"], name="teammembership_unique"),
        ]


class Project(models.Model):
    """A project of the tenant. Its approved rules are read only by its members (deny by default);
    a person's own memories tagged with a project stay theirs whether or not they are a member."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="projects")
    slug = models.CharField(max_length=128)  # exactly as agents name it in a scope (Memory.project)
    name = models.CharField(max_length=200)
    members = models.ManyToManyField(Membership, through="ProjectMembership", related_name="projects")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "slug"], name="project_unique_slug")]

    def __str__(self) -> str:
        return f"{self.tenant.slug}/{self.slug}"


class ProjectMembership(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE)
    membership = models.ForeignKey(Membership, on_delete=models.CASCADE)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["project", "membership"], name="projectmembership_unique")]


def all_agent_scopes() -> list[str]:
    """A new key's scopes unless the admin picks fewer: everything an agent may be granted."""
    return [scope.value for scope in AgentScope]


class AgentClient(models.Model):
    """A service account bound to one tenant. Only a hash of its API key is stored."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="agents")
    name = models.CharField(max_length=100)
    key_prefix = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64)
    # Empty means every type/level the policy allows.
    allowed_types = models.JSONField(default=list, blank=True)
    allowed_levels = models.JSONField(default=list, blank=True)
    can_export_audit = models.BooleanField(default=False)
    # What the key may call (governance/scopes.py). Unlike the two lists above, empty means nothing.
    scopes = models.JSONField(default=all_agent_scopes, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "name"], name="agent_unique_name")]

    def __str__(self) -> str:
        return f"{self.tenant.slug}/{self.name}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class PolicyVersion(models.Model):
    """One immutable version of a tenant's governance policy; the newest is in force.

    The reason is what an admin typed: free text, so it is encrypted with the tenant's shared key (its
    associated data names this row, so the row is inserted first and the reason sealed after).
    """

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="policy_versions")
    version = models.PositiveIntegerField()
    document = models.JSONField()
    reason = EncryptedTextField(null=True, blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "version"], name="policy_unique_version"),
        ]
        ordering = ["-version"]

    def encryption_owner(self) -> str:
        return ""  # the tenant's policy: the tenant's shared key


class Alert(models.Model):
    """An alert raised for one tenant, one kind and one window: at most one row (and one audit event) each."""

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    window_start = models.DateTimeField()
    window_end = models.DateTimeField()
    observed = models.FloatField()
    threshold = models.FloatField()
    baseline = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "kind", "window_start"], name="alert_once_per_window"),
        ]
        indexes = [models.Index(fields=["tenant", "window_start"], name="alert_window")]
        ordering = ["-window_start", "kind"]
