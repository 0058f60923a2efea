"""Invalidate: leaving a team takes back what the team granted; a revoked rule leaves every read."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from audit.verify import verify_chain
from governance.models import Team, TeamMembership
from governance.pipeline.base import Scope
from governance.vocabulary import Level, Status
from memories.lifecycle.invalidate import invalidate_run, rule_revoke
from memories.models import Confirmation, Memory
from memories.services.records import MemoryStateError, NewMemory, memory_create
from memories.services.teams import team_member_remove


def _team_memory(tenant, content, *, user_id, team="ai-platform", type="user_preference", status=Status.ACTIVE):
    return memory_create(
        tenant_id=tenant.pk,
        new=NewMemory(
            scope=Scope(Level.TEAM, user_id=user_id, team=team),
            type=type,
            content=content,
            source_type="explicit_user_request",
            status=status.value,
        ),
        actor="test",
    )


def _status(memory: Memory) -> str:
    return Memory.objects.get(pk=memory.pk).status


def test_leaving_a_team_archives_that_persons_team_memories_in_the_same_transaction(world, make_memory):
    team = Team.objects.get(tenant=world.demo, slug="ai-platform")
    alices = _team_memory(world.demo, "Alice's team note", user_id="alice")
    pending = _team_memory(world.demo, "Alice's pending note", user_id="alice", status=Status.PENDING_CONFIRMATION)
    Confirmation.objects.create(
        tenant=world.demo, memory=pending, confirm_by="user", requested_by="x", expires_at="2099-01-01T00:00:00Z"
    )
    bobs = _team_memory(world.demo, "Bob's team note", user_id="bob")
    team_rule = _team_memory(world.demo, "Team rule", user_id="", type="organization_rule")
    own = make_memory(world.demo, "Alice's own preference", user_id="alice")

    assert team_member_remove(team=team, membership=world.alice, actor="user:carol") == 2

    assert not TeamMembership.objects.filter(team=team, membership=world.alice).exists()
    assert _status(alices) == Status.ARCHIVED
    assert _status(pending) == Status.EXPIRED
    assert Confirmation.objects.get(memory=pending).state == Confirmation.State.EXPIRED
    assert (_status(bobs), _status(team_rule), _status(own)) == (Status.ACTIVE, Status.ACTIVE, Status.ACTIVE)
    archived = AuditEvent.objects.get(event="memory_archived", memory_id=alices.pk)
    assert (archived.reason_code, archived.actor) == ("team_membership_ended", "user:carol")
    change = AuditEvent.objects.filter(event="membership_changed", subject_id="alice").latest("seq")
    assert change.details == {"team": "ai-platform", "change": "team_removed", "memories_invalidated": 2}
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_removing_someone_who_is_not_on_the_team_changes_nothing(world):
    team = Team.objects.get(tenant=world.demo, slug="ai-platform")
    before = AuditEvent.objects.count()
    assert team_member_remove(team=team, membership=world.dave, actor="user:carol") == 0
    assert AuditEvent.objects.count() == before


def test_a_failed_invalidation_rolls_the_removal_back(world, monkeypatch):
    import memories.lifecycle.invalidate as invalidate_module

    team = Team.objects.get(tenant=world.demo, slug="ai-platform")
    memory = _team_memory(world.demo, "Alice's team note", user_id="alice")

    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(invalidate_module, "memory_archive", broken)
    with pytest.raises(RuntimeError):
        team_member_remove(team=team, membership=world.alice, actor="user:carol")
    assert TeamMembership.objects.filter(team=team, membership=world.alice).exists()
    assert _status(memory) == Status.ACTIVE


def test_the_sweep_catches_memberships_removed_some_other_way(world):
    alices = _team_memory(world.demo, "Alice's team note", user_id="alice")
    bobs = _team_memory(world.demo, "Bob's team note", user_id="bob")
    acme_team = Team.objects.create(tenant=world.acme, slug="ai-platform", name="same slug, other tenant")
    TeamMembership.objects.create(team=acme_team, membership=world.erin)
    TeamMembership.objects.filter(membership=world.alice).delete()  # e.g. an admin deleted the row directly

    result = invalidate_run()

    assert result["archived"] == 1
    assert (_status(alices), _status(bobs)) == (Status.ARCHIVED, Status.ACTIVE)
    assert AuditEvent.objects.get(event="memory_archived", memory_id=alices.pk).reason_code == "team_membership_ended"
    assert invalidate_run()["archived"] == 0


def test_the_sweep_archives_everything_of_a_deleted_team(world):
    team = Team.objects.create(tenant=world.demo, slug="short-lived", name="x")
    TeamMembership.objects.create(team=team, membership=world.bob)
    rule = _team_memory(
        world.demo, "Rule of a team that is gone", user_id="", team="short-lived", type="organization_rule"
    )
    note = _team_memory(world.demo, "Bob's note", user_id="bob", team="short-lived")
    team.delete()

    assert invalidate_run()["archived"] == 2
    assert (_status(rule), _status(note)) == (Status.ARCHIVED, Status.ARCHIVED)
    assert AuditEvent.objects.get(event="memory_archived", memory_id=rule.pk).reason_code == "team_removed"


def test_the_sweep_is_limited_to_one_tenant_when_asked(world):
    memory = _team_memory(world.demo, "Alice's team note", user_id="alice")
    TeamMembership.objects.filter(membership=world.alice).delete()
    assert invalidate_run(tenant_id=world.acme.pk)["archived"] == 0
    assert _status(memory) == Status.ACTIVE


def test_a_revoked_rule_is_archived_and_audited(world):
    rule = _team_memory(world.demo, "Team rule", user_id="", type="organization_rule")
    rule_revoke(memory=rule, actor="user:carol")
    assert _status(rule) == Status.ARCHIVED
    assert AuditEvent.objects.get(event="rule_revoked", memory_id=rule.pk).actor == "user:carol"
    assert AuditEvent.objects.get(event="memory_archived", memory_id=rule.pk).reason_code == "rule_revoked"


def test_only_rules_can_be_revoked(world, make_memory):
    with pytest.raises(MemoryStateError):
        rule_revoke(memory=make_memory(world.demo, "a preference", user_id="alice"), actor="user:carol")


def test_a_person_who_left_the_team_stops_seeing_its_rules_at_once(world):
    team = Team.objects.get(tenant=world.demo, slug="ai-platform")
    rule = _team_memory(world.demo, "Always write tests before merging.", user_id="", type="organization_rule")
    agent = world.agent_client(world.demo_key)

    def sees_rule(user_id: str) -> bool:
        response = agent.post(
            "/api/v1/memories/context", {"scope": {"user_id": user_id}, "query": "tests merging"}, format="json"
        )
        assert response.status_code == 200, response.content
        return str(rule.pk) in {item["id"] for item in response.json()["items"]}

    assert sees_rule("alice") and sees_rule("bob")
    team_member_remove(team=team, membership=world.alice, actor="user:carol")
    # No job has run: the read path checks team membership on every read.
    assert not sees_rule("alice")
    assert sees_rule("bob")
    assert _status(rule) == Status.ACTIVE  # the team's rule itself stays for the team
