"""Team membership changes that reach into memories: what a team granted stops when the person leaves."""

from __future__ import annotations

from django.db import transaction

from audit.events import Event
from audit.services import audit_record
from governance.models import Membership, Team, TeamMembership
from memories.lifecycle.invalidate import team_scope_invalidate


@transaction.atomic
def team_member_remove(*, team: Team, membership: Membership, actor: str) -> int:
    """Take a person off a team and invalidate what the team granted them, in one transaction.

    Their memories at the team's scope are archived (pending ones expire); the read path checks
    team membership on every read, so they stop seeing the team's rules at once. Returns how many
    memories were invalidated; 0 (and no audit event) if they weren't on the team.
    """
    removed, _ = TeamMembership.objects.filter(team=team, membership=membership).delete()
    if not removed:
        return 0
    invalidated = team_scope_invalidate(
        tenant_id=team.tenant_id, team_slug=team.slug, subject_id=membership.subject_id, actor=actor
    )
    audit_record(
        tenant_id=team.tenant_id,
        event=Event.MEMBERSHIP_CHANGED,
        actor=actor,
        subject_id=membership.subject_id,
        details={"team": team.slug, "change": "team_removed", "memories_invalidated": invalidated},
    )
    return invalidated
