"""The operator commands named in DESIGN.md: create_tenant, create_agent_key, seed_demo."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from audit.models import AuditEvent
from audit.verify import verify_chain
from conversations.models import Event, Session
from governance.agents import client_for_key
from governance.models import AgentClient, Membership, PolicyVersion, Tenant
from memories.models import Memory


def _run(*args: str, **options: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, **options)
    return out.getvalue()


@pytest.mark.django_db
def test_create_tenant_makes_the_tenant_its_admin_and_policy_v1():
    output = _run("create_tenant", "globex", admin="hank")
    tenant = Tenant.objects.get(slug="globex")
    assert Membership.objects.get(tenant=tenant, user__username="hank").role == "tenant_admin"
    assert PolicyVersion.objects.get(tenant=tenant).version == 1
    assert "temporary password" in output
    hank = Membership.objects.get(tenant=tenant).user
    assert hank.has_perm("governance.administer_tenant", tenant)
    assert not hank.has_perm("governance.audit_tenant", tenant)


@pytest.mark.django_db
def test_create_tenant_refuses_a_bad_or_taken_slug():
    _run("create_tenant", "globex")
    with pytest.raises(CommandError, match="already exists"):
        _run("create_tenant", "globex")
    with pytest.raises(CommandError, match="not a valid slug"):
        _run("create_tenant", "Not A Slug")


def test_create_agent_key_prints_a_working_key_alone_on_the_last_line(world):
    output = _run("create_agent_key", tenant="demo", name="support-bot")
    key = output.strip().splitlines()[-1]
    client = client_for_key(key)
    assert client is not None and client.tenant == world.demo and client.name == "support-bot"
    assert key not in str(list(AgentClient.objects.values()))  # only the hash is stored


def test_create_agent_key_refuses_an_unknown_tenant_or_bad_name(world):
    with pytest.raises(CommandError, match="no tenant"):
        _run("create_agent_key", tenant="nope", name="bot")
    with pytest.raises(CommandError, match="agent name"):
        _run("create_agent_key", tenant="demo", name="Has Spaces")


def _snapshot() -> dict[str, object]:
    return {
        "tenants": sorted(Tenant.objects.values_list("slug", flat=True)),
        "memberships": sorted(Membership.objects.values_list("tenant__slug", "user__username", "role", "subject_id")),
        "memories": sorted(
            (m.tenant.slug, m.user_id, m.type, m.level, m.content, m.status) for m in Memory.objects.all()
        ),
        "agents": sorted(AgentClient.objects.values_list("tenant__slug", "name", "key_hash")),
        "sessions": sorted((s.user_id, s.title, s.state, s.event_count) for s in Session.objects.all()),
    }


@pytest.mark.django_db
def test_seed_demo_twice_leaves_the_same_data_and_prints_working_keys(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    first_output = _run("seed_demo")
    first = _snapshot()
    second_output = _run("seed_demo")
    assert _snapshot() == first
    assert first_output == second_output
    keys = [line.rsplit(" ", 1)[-1] for line in second_output.splitlines() if line.startswith("agent key")]
    assert {client_for_key(key).tenant.slug for key in keys} == {"demo", "acme"}
    roles = dict(Membership.objects.filter(tenant__slug="demo").values_list("user__username", "role"))
    assert roles == {
        "alice": "member",
        "bob": "member",
        "carol": "tenant_admin",
        "dave": "compliance_officer",
        "frank": "tenant_admin",
    }
    rule = Memory.objects.get(tenant__slug="demo", type="organization_rule", status="pending_approval")
    assert rule.confirmation.requested_by == "user:frank"
    assert Membership.objects.get(tenant__slug="acme").user.username == "erin"
    types = set(Memory.objects.values_list("type", flat=True))
    assert len(types) >= 6
    # alice has sessions for a newcomer to look at: one compacted, one forked from another, and one left
    # open to end for the extraction demo (tests/conversations/test_demo_extraction.py).
    sessions = Session.objects.filter(tenant__slug="demo", user_id="alice")
    assert sessions.count() == 4 and sessions.filter(parent__isnull=False).count() == 1
    assert Event.objects.filter(session__in=sessions, kind="compaction").count() == 1
    for tenant in Tenant.objects.all():
        assert verify_chain(tenant_id=tenant.pk).ok
    # Every seeded memory is approved, except what waits in alice's inbox — the inference, and the table
    # preference the pipeline proposes to merge with her step-by-step one (both format) — and the rule
    # awaiting carol.
    waiting = Memory.objects.filter(status="pending_confirmation", user_id="alice")
    assert sorted(waiting.values_list("reason_code", flat=True)) == ["merge_proposed", "needs_user_confirmation"]
    assert Memory.objects.filter(status="active").count() == Memory.objects.count() - 3
    # Seeded through the write pipeline like real writes: real reasons, and the policy's lifetimes.
    assert not Memory.objects.filter(reason_code="seeded").exists()
    assert AuditEvent.objects.filter(event="memory_write_approved").count() >= Memory.objects.count() - 3
    temporary = Memory.objects.filter(level__in=("session", "task"))
    assert temporary.exists() and not temporary.filter(expires_at__isnull=True).exists()
