"""Brute force is throttled: failed logins (django-axes) and failed agent-key authentications answer 429
with Retry-After after a few tries, are audited in the tenant they aimed at, and its admin sees them."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from audit.models import AuditEvent
from tests.conftest import PASSWORD


@pytest.fixture(autouse=True)
def _fresh_counters():
    from axes.utils import reset

    cache.clear()
    reset()
    yield
    cache.clear()
    reset()


def _login(client, username: str, password: str, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_after_repeated_wrong_passwords_even_the_right_one_is_refused_for_a_while(client, world, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "alice", "wrong-password").status_code == 200  # the form again, with its error
    assert _login(client, "alice", "wrong-password").status_code == 429  # the limit-th failure locks
    locked = _login(client, "alice", PASSWORD, HTTP_ACCEPT="application/json")
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert locked.json()["error"] == "too_many_attempts"
    page = _login(client, "alice", PASSWORD)
    assert page.status_code == 429 and "Too many failed sign-ins" in page.content.decode()
    assert "_auth_user_id" not in client.session
    events = AuditEvent.objects.filter(tenant=world.demo, event="login_locked_out")
    assert events.count() == 1 and events.get().subject_id == "alice"
    assert not AuditEvent.objects.filter(tenant=world.acme, event="login_locked_out").exists()


def test_a_correct_password_before_the_limit_still_logs_in(client, world, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "alice", "wrong-password")
    assert _login(client, "alice", PASSWORD).status_code == 302


def test_repeated_bad_agent_keys_are_throttled_with_retry_after(world, settings):
    agent = world.agent_client("mg_" + world.demo_agent.key_prefix + "_not-the-secret")
    for _ in range(settings.MEMGOV_AGENT_AUTH_FAILURE_LIMIT):
        assert agent.get("/api/v1/memories", {"user_id": "alice"}).status_code == 401
    throttled = agent.get("/api/v1/memories", {"user_id": "alice"})
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    assert throttled.json()["error"] == "throttled"
    # The right key from the same address waits too: the address is what is throttled.
    good = world.agent_client(world.demo_key).get("/api/v1/memories", {"user_id": "alice"})
    assert good.status_code == 429
    event = AuditEvent.objects.get(tenant=world.demo, event="agent_auth_throttled")
    assert event.details["key_prefix"] == world.demo_agent.key_prefix and event.actor == "system:auth"
    assert not AuditEvent.objects.filter(tenant=world.acme, event="agent_auth_throttled").exists()


def test_garbage_keys_are_throttled_too_but_audited_nowhere(world, settings):
    agent = world.agent_client("mg_nope_nope")
    for _ in range(settings.MEMGOV_AGENT_AUTH_FAILURE_LIMIT):
        agent.get("/api/v1/memories", {"user_id": "alice"})
    assert agent.get("/api/v1/memories", {"user_id": "alice"}).status_code == 429
    assert not AuditEvent.objects.filter(event="agent_auth_throttled").exists()


def test_the_tenant_admin_sees_lockouts_and_throttled_keys_and_nobody_else_does(client, world, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        _login(client, "bob", "wrong-password")
    agent = world.agent_client("mg_" + world.demo_agent.key_prefix + "_not-the-secret")
    for _ in range(settings.MEMGOV_AGENT_AUTH_FAILURE_LIMIT + 1):
        agent.get("/api/v1/memories", {"user_id": "alice"})
    cache.clear()  # the admin signs in from the same test address
    from axes.utils import reset

    reset()
    client.force_login(world.carol.user)
    page = client.get("/console/agents/").content.decode()
    assert 'data-testid="security-events"' in page
    assert "Sign-in locked out" in page and "Agent key attempts throttled" in page
    assert world.demo_agent.key_prefix in page
    client.force_login(world.alice.user)
    assert client.get("/console/agents/").status_code == 404
    client.force_login(world.erin.user)
    assert client.get("/console/agents/").status_code == 404
