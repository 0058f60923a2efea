"""The read path's scope and permission filter: each rule tested with the person who must *not* see the memory."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
import time_machine
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from governance.models import Membership, Project, Team
from governance.services.projects import project_create, project_member_add, project_member_remove
from governance.services.tenancy import membership_set, team_create, team_member_add, user_create
from governance.vocabulary import Level, Status
from memories.access import Caller
from memories.models import Memory
from memories.read.scope import (
    ContextScope,
    CrossScope,
    ReadGrant,
    memory_context_candidates,
    memory_context_rows,
    read_grant_for,
)
from vault.datakeys import forget_cached_keys
from vault.models import DataKey

NOW = datetime(2026, 7, 7, 10, 0, tzinfo=UTC)


def agent(world, tenant="demo") -> Caller:
    client = world.demo_agent if tenant == "demo" else world.acme_agent
    return Caller(tenant_id=client.tenant_id, actor=f"agent:{client.name}", agent=client)


def person(membership) -> Caller:
    return Caller(
        tenant_id=membership.tenant_id,
        actor=f"user:{membership.user.username}",
        subject_id=membership.subject_id,
        membership=membership,
    )


def join(tenant, slug: str, *members: Membership) -> Project:
    """The project ``slug`` of ``tenant`` (created if new), with these people added to it."""
    project = Project.objects.filter(tenant=tenant, slug=slug).first() or project_create(
        tenant=tenant, slug=slug, actor="test"
    )
    for membership in members:
        project_member_add(project=project, membership=membership, actor="test")
    return project


def visible(caller: Caller, **scope: str) -> list[str]:
    decision = read_grant_for(caller=caller, scope=ContextScope(**scope))
    assert decision.grant is not None, decision.denied
    return sorted(c.content for c in memory_context_candidates(grant=decision.grant, now=timezone.now()))


def sealed_ids(caller: Caller, **scope: str) -> set[UUID]:
    """The ids the candidate statement lets through, before decryption."""
    decision = read_grant_for(caller=caller, scope=ContextScope(**scope))
    assert decision.grant is not None, decision.denied
    return {UUID(str(row[0])) for row in memory_context_rows(grant=decision.grant, now=timezone.now())}


def test_a_subject_sees_its_own_user_memories_and_not_a_teammates(world, make_memory):
    make_memory(world.demo, "alice likes tables", user_id="alice")
    make_memory(world.demo, "bob likes lists", user_id="bob")
    assert visible(agent(world), user_id="alice") == ["alice likes tables"]
    assert visible(agent(world), user_id="bob") == ["bob likes lists"]


def test_the_same_subject_id_in_another_tenant_sees_nothing_of_this_one(world, make_memory):
    make_memory(world.demo, "demo alice", user_id="alice")
    make_memory(world.demo, "demo rule", level=Level.TENANT, type="organization_rule")
    make_memory(world.acme, "acme alice", user_id="alice")
    assert visible(agent(world, "acme"), user_id="alice") == ["acme alice"]
    assert visible(agent(world), user_id="alice") == ["demo alice", "demo rule"]


def test_the_sql_filter_itself_keeps_another_tenants_rows_out(world, make_memory):
    """Checked on the sealed rows: another tenant's row would fail to open after the query anyway (its
    associated data names its tenant), and that would hide a statement that let it through."""

    def both(content: str, **fields: str) -> tuple[UUID, UUID]:
        return make_memory(world.demo, f"demo {content}", **fields).pk, make_memory(world.acme, content, **fields).pk

    rows = [
        both("alice", user_id="alice"),
        both("alice docs", user_id="alice", level=Level.PROJECT, project="docs", type="project_rule"),
        both("alice s1", user_id="alice", level=Level.SESSION, session_id="s1"),
        both("rule", level=Level.TENANT, type="organization_rule"),
        both("docs rule", level=Level.PROJECT, project="docs", type="project_rule"),
    ]
    demo_team_rule, _ = both("team rule", level=Level.TEAM, team="ai-platform", type="organization_rule")
    acme_alice = membership_set(
        tenant=world.acme,
        user=user_create(username="alice-acme", password=None),
        role="member",
        subject_id="alice",
        actor="test",
    )
    join(world.demo, "docs", world.alice)
    join(world.acme, "docs", acme_alice)
    scope = {"user_id": "alice", "project": "docs", "session_id": "s1"}
    assert sealed_ids(agent(world), **scope) == {demo for demo, _ in rows} | {demo_team_rule}
    assert sealed_ids(agent(world, "acme"), **scope) == {acme for _, acme in rows}  # no team in acme


@pytest.mark.parametrize(
    "status",
    [
        Status.PENDING_CONFIRMATION,
        Status.PENDING_APPROVAL,
        Status.PAUSED,
        Status.ARCHIVED,
        Status.EXPIRED,
        Status.DELETED,
    ],
)
def test_only_active_memories_are_visible(world, make_memory, status):
    make_memory(world.demo, "live", user_id="alice")
    hidden = make_memory(world.demo, "hidden", user_id="alice")
    Memory.objects.filter(pk=hidden.pk).update(status=status)
    rule = make_memory(world.demo, "hidden rule", level=Level.TENANT, type="organization_rule")
    Memory.objects.filter(pk=rule.pk).update(status=status)
    assert visible(agent(world), user_id="alice") == ["live"]


def test_a_memory_past_its_expiry_is_hidden_before_any_sweep(world, make_memory):
    with time_machine.travel(NOW, tick=False):
        soon = make_memory(world.demo, "expires in an hour", user_id="alice")
        Memory.objects.filter(pk=soon.pk).update(expires_at=NOW + timedelta(hours=1))
        assert visible(agent(world), user_id="alice") == ["expires in an hour"]
    with time_machine.travel(NOW + timedelta(hours=1, seconds=1), tick=False):
        assert visible(agent(world), user_id="alice") == []
        assert Memory.objects.get(pk=soon.pk).status == Status.ACTIVE  # no sweep ran


def test_session_memories_only_for_the_named_session_and_only_the_subjects_own(world, make_memory):
    make_memory(world.demo, "alice s1", user_id="alice", level=Level.SESSION, session_id="s1")
    make_memory(world.demo, "alice s2", user_id="alice", level=Level.SESSION, session_id="s2")
    make_memory(world.demo, "bob s1", user_id="bob", level=Level.SESSION, session_id="s1")
    make_memory(world.demo, "nobody's s1", level=Level.SESSION, session_id="s1")
    assert visible(agent(world), user_id="alice") == []
    assert visible(agent(world), user_id="alice", session_id="s1") == ["alice s1"]
    assert visible(agent(world), user_id="bob", session_id="s1") == ["bob s1"]


def test_task_memories_only_for_the_named_task_and_only_the_subjects_own(world, make_memory):
    make_memory(world.demo, "alice t1", user_id="alice", level=Level.TASK, task_id="t1", type="task_state")
    make_memory(world.demo, "bob t1", user_id="bob", level=Level.TASK, task_id="t1", type="task_state")
    assert visible(agent(world), user_id="alice") == []
    assert visible(agent(world), user_id="alice", task_id="t1") == ["alice t1"]
    assert visible(agent(world), user_id="alice", task_id="t2") == []


def test_project_memories_and_rules_only_for_the_named_project(world, make_memory):
    join(world.demo, "docs", world.alice)
    join(world.demo, "wiki", world.alice)
    join(world.acme, "docs", world.erin)
    make_memory(
        world.demo, "alice docs rule", user_id="alice", level=Level.PROJECT, project="docs", type="project_rule"
    )
    make_memory(world.demo, "alice tagged docs", user_id="alice", project="docs")
    make_memory(world.demo, "shared docs rule", level=Level.PROJECT, project="docs", type="project_rule")
    make_memory(world.demo, "shared wiki rule", level=Level.PROJECT, project="wiki", type="project_rule")
    make_memory(world.demo, "bob docs rule", user_id="bob", level=Level.PROJECT, project="docs", type="project_rule")
    make_memory(world.acme, "acme docs rule", level=Level.PROJECT, project="docs", type="project_rule")
    assert visible(agent(world), user_id="alice") == []
    assert visible(agent(world), user_id="alice", project="docs") == [
        "alice docs rule",
        "alice tagged docs",
        "shared docs rule",
    ]
    assert visible(agent(world), user_id="alice", project="wiki") == ["shared wiki rule"]


def test_project_rules_reach_its_members_only(world, make_memory):
    join(world.demo, "docs", world.alice)
    join(world.acme, "docs", world.erin)
    make_memory(world.demo, "shared docs rule", level=Level.PROJECT, project="docs", type="project_rule")
    make_memory(world.demo, "bob's own docs note", user_id="bob", level=Level.PROJECT, project="docs")
    assert visible(agent(world), user_id="alice", project="docs") == ["shared docs rule"]
    # bob is in the tenant, not in the project: his own memories of it, never its rules
    assert visible(agent(world), user_id="bob", project="docs") == ["bob's own docs note"]
    assert visible(person(world.bob), user_id="bob", project="docs") == ["bob's own docs note"]
    # a subject with no login at all, and the same project slug in another tenant
    assert visible(agent(world), user_id="agent-made-subject", project="docs") == []
    assert visible(agent(world, "acme"), user_id="erin", project="docs") == []


def test_joining_and_leaving_a_project_apply_at_the_next_read(world, make_memory):
    docs = join(world.demo, "docs")
    make_memory(world.demo, "shared docs rule", level=Level.PROJECT, project="docs", type="project_rule")
    assert visible(agent(world), user_id="bob", project="docs") == []
    project_member_add(project=docs, membership=world.bob, actor="test")
    assert visible(agent(world), user_id="bob", project="docs") == ["shared docs rule"]
    assert project_member_remove(project=docs, membership=world.bob, actor="test") is True
    assert visible(agent(world), user_id="bob", project="docs") == []
    assert project_member_remove(project=docs, membership=world.bob, actor="test") is False


def test_a_project_cannot_take_a_member_of_another_tenant(world):
    from governance.services.people import PeopleError

    with pytest.raises(PeopleError):
        project_member_add(project=join(world.acme, "docs"), membership=world.alice, actor="test")


def test_team_rules_reach_members_only(world, make_memory):
    make_memory(world.demo, "platform rule", level=Level.TEAM, team="ai-platform", type="organization_rule")
    make_memory(world.acme, "acme platform rule", level=Level.TEAM, team="ai-platform", type="organization_rule")
    assert visible(agent(world), user_id="alice") == ["platform rule"]
    assert visible(agent(world), user_id="alice", team="ai-platform") == ["platform rule"]
    assert visible(agent(world), user_id="dave") == []  # in the tenant, not on the team
    assert visible(agent(world, "acme"), user_id="erin") == []  # same team slug in another tenant, not a member


def test_naming_a_team_narrows_to_it(world, make_memory):
    other = team_create(tenant=world.demo, slug="search", actor="test")
    team_member_add(team=other, membership=world.alice, actor="test")
    make_memory(world.demo, "platform rule", level=Level.TEAM, team="ai-platform", type="organization_rule")
    make_memory(world.demo, "search rule", level=Level.TEAM, team="search", type="organization_rule")
    assert visible(agent(world), user_id="alice") == ["platform rule", "search rule"]
    assert visible(agent(world), user_id="alice", team="search") == ["search rule"]


def test_leaving_a_team_ends_its_rules_at_once(world, make_memory):
    make_memory(world.demo, "platform rule", level=Level.TEAM, team="ai-platform", type="organization_rule")
    assert visible(agent(world), user_id="bob") == ["platform rule"]
    Team.objects.get(tenant=world.demo, slug="ai-platform").teammembership_set.filter(membership=world.bob).delete()
    assert visible(agent(world), user_id="bob") == []


def test_a_personal_row_at_a_shared_level_is_not_visible(world, make_memory):
    make_memory(world.demo, "bob at team level", user_id="bob", level=Level.TEAM, team="ai-platform")
    make_memory(world.demo, "bob at tenant level", user_id="bob", level=Level.TENANT)
    assert visible(agent(world), user_id="alice") == []


def test_tenant_rules_reach_every_subject_of_the_tenant_only(world, make_memory):
    make_memory(world.demo, "demo rule", level=Level.TENANT, type="organization_rule")
    assert visible(agent(world), user_id="dave") == ["demo rule"]
    assert visible(agent(world), user_id="someone-without-a-login") == ["demo rule"]
    assert visible(agent(world, "acme"), user_id="erin") == []


def test_a_person_may_only_read_their_own_subject(world, make_memory):
    make_memory(world.demo, "alice likes tables", user_id="alice")
    decision = read_grant_for(caller=person(world.bob), scope=ContextScope(user_id="alice"))
    assert decision.grant is None and decision.denied == CrossScope.OTHER_SUBJECT
    assert visible(person(world.alice), user_id="alice") == ["alice likes tables"]


def test_naming_a_team_the_subject_is_not_in_is_cross_scope(world):
    decision = read_grant_for(caller=agent(world), scope=ContextScope(user_id="dave", team="ai-platform"))
    assert decision.grant is None and decision.denied == CrossScope.NOT_TEAM_MEMBER
    decision = read_grant_for(caller=agent(world, "acme"), scope=ContextScope(user_id="alice", team="ai-platform"))
    assert decision.grant is None and decision.denied == CrossScope.NOT_TEAM_MEMBER


def test_an_agent_key_reads_only_its_allowed_levels_and_types(world, make_memory):
    make_memory(world.demo, "pref", user_id="alice")
    make_memory(world.demo, "profile", user_id="alice", type="user_profile")
    make_memory(
        world.demo, "in session", user_id="alice", level=Level.SESSION, session_id="s1", type="temporary_context"
    )
    world.demo_agent.allowed_levels = ["session"]
    world.demo_agent.allowed_types = ["temporary_context", "user_preference"]
    assert visible(agent(world), user_id="alice", session_id="s1") == ["in session"]
    decision = read_grant_for(caller=agent(world), scope=ContextScope(user_id="alice", project="docs"))
    assert decision.denied == CrossScope.LEVEL_NOT_ALLOWED
    world.demo_agent.allowed_levels = []
    assert visible(agent(world), user_id="alice") == ["pref"]
    decision = read_grant_for(caller=agent(world), scope=ContextScope(user_id="alice"), types=("user_profile",))
    assert decision.denied == CrossScope.TYPE_NOT_ALLOWED


def test_requested_types_narrow_the_read(world, make_memory):
    make_memory(world.demo, "pref", user_id="alice")
    make_memory(world.demo, "profile", user_id="alice", type="user_profile")
    decision = read_grant_for(caller=agent(world), scope=ContextScope(user_id="alice"), types=("user_profile",))
    assert [c.content for c in memory_context_candidates(grant=decision.grant, now=timezone.now())] == ["profile"]


def test_a_memory_whose_key_was_destroyed_is_skipped(world, make_memory):
    make_memory(world.demo, "shared rule", level=Level.TENANT, type="organization_rule")
    make_memory(world.demo, "alice likes tables", user_id="alice")
    DataKey.objects.filter(tenant_id=world.demo.pk, owner="alice").delete()
    forget_cached_keys()
    assert visible(agent(world), user_id="alice") == ["shared rule"]


def test_a_ciphertext_moved_to_another_row_does_not_open(world, make_memory):
    mine = make_memory(world.demo, "alice likes tables", user_id="alice")
    other = make_memory(world.demo, "alice likes lists", user_id="alice")
    blob = Memory.objects.filter(pk=other.pk).values_list("content", flat=True).get()
    Memory.objects.filter(pk=mine.pk).update(content=blob)
    assert visible(agent(world), user_id="alice") == ["alice likes lists"]


@pytest.mark.parametrize(
    "blob",
    [
        b"\x02 another format, or no format at all: not a memgov ciphertext",
        b"\x01 names a data key that doesn't exist, with 37 bytes or more",
        b"\x01",
    ],
)
def test_a_value_that_is_not_a_sealed_blob_is_skipped(world, make_memory, blob):
    mine = make_memory(world.demo, "alice likes tables", user_id="alice")
    make_memory(world.demo, "alice likes lists", user_id="alice")
    Memory.objects.filter(pk=mine.pk).update(content=blob)
    assert visible(agent(world), user_id="alice") == ["alice likes lists"]


def test_candidates_carry_what_ranking_needs(world, make_memory):
    memory = make_memory(world.demo, "alice likes tables", user_id="alice", source_type="user_statement")
    grant = read_grant_for(caller=agent(world), scope=ContextScope(user_id="alice")).grant
    (candidate,) = memory_context_candidates(grant=grant, now=timezone.now())
    assert candidate.id == str(memory.id)
    assert candidate.source_type == "user_statement"
    assert candidate.updated_at == Memory.objects.get(pk=memory.pk).updated_at
    assert timezone.is_aware(candidate.updated_at)


def test_an_empty_subject_is_refused_rather_than_matching_shared_rows(world):
    with pytest.raises(ValueError):
        read_grant_for(caller=agent(world), scope=ContextScope(user_id=""))


def test_grants_of_the_same_shape_each_get_their_own_rows(world, make_memory):
    """The candidate query is built once per shape of grant and reused: only the bound values differ."""
    make_memory(world.demo, "alice docs", user_id="alice", project="docs")
    make_memory(world.demo, "alice wiki", user_id="alice", project="wiki")
    make_memory(world.demo, "bob docs", user_id="bob", project="docs")
    make_memory(world.acme, "acme alice docs", user_id="alice", project="docs")
    make_memory(world.demo, "docs rule", level=Level.PROJECT, project="docs", type="project_rule")
    join(world.demo, "docs", world.alice, world.bob)
    assert visible(agent(world), user_id="alice", project="docs") == ["alice docs", "docs rule"]
    assert visible(agent(world), user_id="alice", project="wiki") == ["alice wiki"]
    assert visible(agent(world), user_id="bob", project="docs") == ["bob docs", "docs rule"]
    assert visible(agent(world, "acme"), user_id="alice", project="docs") == ["acme alice docs"]


def test_an_empty_allowance_matches_nothing(world, make_memory):
    make_memory(world.demo, "pref", user_id="alice")
    make_memory(world.demo, "rule", level=Level.TENANT, type="organization_rule")
    for allowance in ({"types": frozenset()}, {"levels": frozenset()}):
        grant = ReadGrant(tenant_id=world.demo.pk, user_id="alice", **allowance)
        assert memory_context_candidates(grant=grant, now=timezone.now()) == []


def _candidate_plan(caller: Caller, **scope: str) -> str:
    """The plan for the candidate statement of this read, as planned before the table was ever analyzed.

    SQLite has no statistics unless ANALYZE runs (memgov never runs it). On PostgreSQL the statement is
    planned against a temporary copy of the table and its indexes: autovacuum never analyzes temporary
    tables, while it may analyze the real one at any moment of a test run.
    """
    decision = read_grant_for(caller=caller, scope=ContextScope(**scope))
    assert decision.grant is not None, decision.denied
    with CaptureQueriesContext(connection) as queries:
        memory_context_rows(grant=decision.grant, now=timezone.now())
    sql = queries[-1]["sql"]
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.execute("EXPLAIN QUERY PLAN " + sql)
            return "\n".join(str(row[-1]) for row in cursor.fetchall())
        table = connection.ops.quote_name(Memory._meta.db_table)
        cursor.execute(f"CREATE TEMPORARY TABLE never_analyzed (LIKE {table} INCLUDING INDEXES) ON COMMIT DROP")
        cursor.execute(f"INSERT INTO never_analyzed SELECT * FROM {table}")
        # A table this small would be read whole; the question is which index a read would use.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql.replace(table, "never_analyzed"))
        return "\n".join(str(row[-1]) for row in cursor.fetchall())


def test_the_candidate_statement_reads_only_the_subject_index(world, make_memory):
    # Each branch is an equality on (tenant, user_id). With one ``user_id IN (subject, '')`` filter,
    # PostgreSQL, before its first ANALYZE of the table, scanned the tenant's every active row: 42 ms
    # a read at 200,000 rows instead of 4.
    for n in range(40):
        make_memory(world.demo, f"preference {n}", user_id=f"someone-{n % 8}")
    make_memory(world.demo, "alice likes tables", user_id="alice")
    plan = _candidate_plan(agent(world), user_id="alice", project="dispatch-docs", session_id="s1")
    # Every index lookup is bounded by the subject (or the blank subject of shared rules), and no
    # step reads the table whole.
    lookups = [line for line in plan.splitlines() if "Index Cond" in line or line.startswith("SEARCH")]
    assert len(lookups) == 2 and all("user_id" in line for line in lookups), plan
    assert "Seq Scan" not in plan and "SCAN memories_memory" not in plan, plan
    if connection.vendor == "sqlite":
        assert plan.count("USING INDEX memory_subject_level_status (tenant_id=? AND user_id=?)") == 2, plan
