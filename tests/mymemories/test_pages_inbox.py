"""Pending confirmations: what an agent wants to remember, why, from which message; accept or decline."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.test import Client
from django.utils import timezone

from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType
from memories.models import Confirmation
from memories.selectors import memory_list_active_for_subject
from memories.services.write import memory_write


def _pending(world, user_id: str, content: str, message: str = "msg-1") -> Confirmation:
    result = memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content=content,
            scope=Scope(Level.USER, user_id=user_id),
            source_type=SourceType.AGENT_INFERENCE,
            type=MemoryType.USER_PREFERENCE,
            confidence=0.8,
            source_message_id=message,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
    )
    assert result.confirmation is not None, result.decision
    return result.confirmation


def _login(membership) -> Client:
    client = Client()
    client.force_login(membership.user)
    return client


def test_the_inbox_shows_what_why_where_from_and_the_badge_counts(world):
    _pending(world, "alice", "Prefers answers with a summary first", message="msg-77")
    _pending(world, "bob", "Bob prefers emoji")
    alice = _login(world.alice)
    page = alice.get("/inbox/").content.decode()
    assert "Prefers answers with a summary first" in page and "Bob prefers emoji" not in page
    assert "it is kept only if you confirm" in page  # why
    assert "msg-77" in page and "demo-agent" in page  # from which message, which agent
    assert 'data-testid="pending-badge">1<' in alice.get("/").content.decode()


def test_accept_makes_it_active(world):
    confirmation = _pending(world, "alice", "Prefers answers with a summary first")
    alice = _login(world.alice)
    assert alice.post(f"/inbox/{confirmation.id}/accept").status_code == 302
    assert [m.content for m in memory_list_active_for_subject(tenant_id=world.demo.pk, user_id="alice")] == [
        "Prefers answers with a summary first"
    ]
    assert "pending-badge" not in alice.get("/").content.decode()
    # Accepting twice: a message, not a 500 (the confirmation is no longer pending: 404 like any other).
    assert alice.post(f"/inbox/{confirmation.id}/accept").status_code == 404


def test_decline_drops_it(world):
    confirmation = _pending(world, "alice", "Prefers answers with a summary first")
    _login(world.alice).post(f"/inbox/{confirmation.id}/decline")
    confirmation.refresh_from_db()
    assert confirmation.state == "declined" and confirmation.memory.status == "deleted"


def test_a_teammate_or_another_tenant_cannot_settle_my_confirmation(world):
    confirmation = _pending(world, "alice", "Prefers answers with a summary first")
    for membership in (world.bob, world.erin):
        other = _login(membership)
        assert other.post(f"/inbox/{confirmation.id}/accept").status_code == 404
        assert other.post(f"/inbox/{confirmation.id}/decline").status_code == 404
        assert "summary first" not in other.get("/inbox/").content.decode()
    confirmation.refresh_from_db()
    assert confirmation.state == "pending"


def test_an_expired_request_is_not_offered(world):
    confirmation = _pending(world, "alice", "Prefers answers with a summary first")
    with time_machine.travel(timezone.now() + timedelta(days=30)):
        alice = _login(world.alice)
        assert "summary first" not in alice.get("/inbox/").content.decode()
        assert alice.post(f"/inbox/{confirmation.id}/accept").status_code == 404
