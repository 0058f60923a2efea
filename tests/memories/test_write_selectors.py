"""The reads memory.write makes: one statement each, and never another tenant's or subject's rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from governance.pipeline import dedup
from governance.pipeline.base import Scope
from governance.policy import default_policy_document
from governance.services.policy import policy_version_create
from governance.vocabulary import Level, Role
from memories.models import Memory
from memories.services.records import memory_pause
from memories.services.subjects import session_opt_out, subject_set_paused
from memories.write_selectors import existing_in_scope, write_facts


def _facts(world, tenant, *, person="alice", subject="alice", session_id=""):
    return write_facts(tenant_id=tenant.pk, person=person, subject=subject, session_id=session_id)


def test_facts_are_one_query_with_the_newest_policy_version(world):
    document = {**default_policy_document(), "pending_confirmation_ttl": 1234}
    policy_version_create(tenant=world.demo, document=document, reason="shorter", actor="user:carol")
    with CaptureQueriesContext(connection) as queries:
        facts = _facts(world, world.demo)
    assert len(queries) == 1
    assert facts.policy.version == 2 and facts.policy.pending_confirmation_ttl == 1234
    assert _facts(world, world.acme, person="erin", subject="erin").policy.version == 1


def test_facts_name_the_role_only_within_the_tenant(world):
    assert _facts(world, world.demo, person="carol", subject="carol").role == Role.TENANT_ADMIN
    # erin is a member of acme, not of demo: in demo she has no role at all.
    assert _facts(world, world.demo, person="erin", subject="erin").role is None
    assert _facts(world, world.acme, person="erin", subject="erin").role == Role.MEMBER


def test_pause_and_session_opt_out_are_per_tenant_and_subject(world):
    subject_set_paused(tenant_id=world.demo.pk, user_id="alice", paused=True, actor="user:alice")
    session_opt_out(tenant_id=world.demo.pk, user_id="bob", session_id="s-1", actor="user:bob")
    assert _facts(world, world.demo).memory_paused is True
    assert _facts(world, world.acme).memory_paused is False
    assert _facts(world, world.demo, person="bob", subject="bob").memory_paused is False
    assert _facts(world, world.demo, person="bob", subject="bob", session_id="s-1").session_opt_out is True
    assert _facts(world, world.demo, person="bob", subject="bob", session_id="s-2").session_opt_out is False
    assert _facts(world, world.acme, person="bob", subject="bob", session_id="s-1").session_opt_out is False


def test_existing_holds_only_live_memories_of_exactly_this_scope(world, make_memory):
    mine = make_memory(world.demo, "Alice likes tables", user_id="alice")
    make_memory(world.demo, "Bob likes tables", user_id="bob")
    make_memory(world.acme, "Acme alice likes tables", user_id="alice")
    project = make_memory(world.demo, "Use pnpm", user_id="alice", level=Level.PROJECT, project="p1")
    make_memory(world.demo, "Use yarn", user_id="alice", level=Level.PROJECT, project="p2")
    paused = make_memory(world.demo, "Paused", user_id="alice")
    memory_pause(memory=paused, actor="test")
    expired = make_memory(world.demo, "Expired", user_id="alice")
    Memory.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    now = timezone.now()
    Memory.objects.update(aspect_key="")  # not indexed: every row of the scope could be comparable

    def scope_of(tenant, scope):
        return existing_in_scope(tenant_id=tenant.pk, scope=scope, now=now, fingerprint="", aspect_names=())

    user_scope = scope_of(world.demo, Scope(Level.USER, user_id="alice"))
    assert [(m.id, m.content) for m in user_scope] == [(str(mine.pk), "Alice likes tables")]
    assert user_scope[0].fingerprint == mine.fingerprint
    p1 = scope_of(world.demo, Scope(Level.PROJECT, user_id="alice", project="p1"))
    assert [m.id for m in p1] == [str(project.pk)]
    acme = scope_of(world.acme, Scope(Level.USER, user_id="alice"))
    assert [m.content for m in acme] == ["Acme alice likes tables"]


def test_a_write_compares_with_the_memory_written_before_it_without_opening_it(world, monkeypatch):
    # The first write keeps what its text says in the row's comparison index; the next write of the
    # scope finds the contradiction without decrypting the stored memory, in a fresh process too.
    import memories.write_selectors as selectors
    from governance.pipeline.base import Candidate
    from governance.vocabulary import SourceType
    from memories.services.write import memory_write

    def write(content: str):
        return memory_write(
            tenant_id=world.demo.pk,
            candidate=Candidate(
                content=content,
                scope=Scope(Level.USER, user_id="alice"),
                source_type=SourceType.EXPLICIT_USER_REQUEST,
                type="user_preference",
            ),
            actor_label="agent:test",
        )

    first = write("I prefer short answers.")
    assert first.decision.kind == "save"

    def refuse(*args, **kwargs):
        raise AssertionError("the write opened a stored memory it had parsed when writing it")

    monkeypatch.setattr(selectors, "decrypt_column", refuse)
    dedup._aspect_cache.clear()  # what a restarted worker has
    second = write("I prefer long, detailed answers.")
    assert second.decision.conflict_with == str(first.memory.pk)


def test_the_scope_read_is_served_by_the_subject_index(world):
    """Dedup compares fingerprints among these rows: the subject index, not a fingerprint index, finds them."""
    if connection.vendor != "sqlite":
        pytest.skip("reads SQLite's query plan")
    with CaptureQueriesContext(connection) as queries:
        existing_in_scope(
            tenant_id=world.demo.pk,
            scope=Scope(Level.USER, user_id="alice"),
            now=timezone.now(),
            fingerprint="0" * 64,
            aspect_names=("answer_length", "format"),
        )
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + queries[0]["sql"])
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "USING INDEX memory_subject_level_status" in plan
    index_names = {index.name for index in Memory._meta.indexes}
    assert "memory_fingerprint" not in index_names
