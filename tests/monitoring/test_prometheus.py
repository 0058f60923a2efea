"""/metrics: Prometheus text (parsable), the lifecycle counters plus per-tenant gauges from the
database; only a bearer token holder, or a direct local connection when no token is set."""

from __future__ import annotations

import pytest
from django.test import override_settings
from prometheus_client.parser import text_string_to_metric_families

from audit.events import Event
from audit.services import audit_record
from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, SourceType
from memories.services.write import memory_write


@pytest.fixture(autouse=True)
def _tenant_names_on(request, settings):
    """Most tests here read the per-tenant gauges by slug, as an operator who opts in would."""
    settings.MEMGOV_METRICS_TENANT_NAMES = "no_tenant_names" not in request.node.name


def test_by_default_metrics_name_no_tenant_no_tenant_names(client, world):
    text = client.get("/metrics").content.decode()
    assert f'tenant="{world.demo.pk}"' in text and f'tenant="{world.acme.pk}"' in text
    assert 'tenant="demo"' not in text and "acme" not in text


def test_a_scrape_from_elsewhere_needs_the_token_no_tenant_names(client, world, settings):
    settings.MEMGOV_METRICS_TOKEN = "scrape-token-123"
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-token-123").status_code == 200


def samples(response) -> dict[tuple[str, tuple], float]:
    found = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_metrics_are_prometheus_text_with_db_gauges_and_lifecycle_counters(client, world):
    memory_write(
        tenant_id=world.demo.pk,
        candidate=Candidate(
            content="All repositories must have a CODEOWNERS file.",
            scope=Scope(Level.TENANT),
            source_type=SourceType.EXPLICIT_USER_REQUEST,
            type=MemoryType.ORGANIZATION_RULE,
        ),
        actor_label="agent:demo-agent",
        agent=world.demo_agent,
        on_behalf_of="carol",
    )
    audit_record(tenant_id=world.demo.pk, event=Event.CROSS_SCOPE_READ, actor="agent:demo-agent")
    response = client.get("/metrics")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain; version=")
    text = response.content.decode()
    assert "# TYPE memgov_lifecycle_runs_total counter" in text
    found = samples(response)
    assert found[("memgov_rules_pending", (("tenant", "demo"),))] == 1
    assert found[("memgov_rules_pending", (("tenant", "acme"),))] == 0
    assert found[("memgov_writes_last_hour", (("decision", "ask_confirmation"), ("tenant", "demo")))] == 1
    assert found[("memgov_cross_scope_reads_last_hour", (("tenant", "demo"),))] == 1
    assert found[("memgov_stale_memory_uses_last_hour", (("tenant", "demo"),))] == 0
    assert found[("memgov_agent_keys_active", (("tenant", "acme"),))] == 1
    assert found[("memgov_alerts_raised_24h", (("alert", "cross_scope_read"), ("tenant", "demo")))] == 0
    assert found[("memgov_audit_events", (("tenant", "demo"),))] > 0
    assert "CODEOWNERS" not in text


def test_without_a_token_only_direct_local_connections_may_scrape(client, world):
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 404
    assert client.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 404  # via a local proxy
    assert client.post("/metrics").status_code == 405


@override_settings(MEMGOV_METRICS_TOKEN="scrape-me-7f3a")
def test_with_a_token_the_bearer_may_scrape_from_anywhere(client, world):
    assert client.get("/metrics").status_code == 404  # loopback alone is not enough any more
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3", HTTP_AUTHORIZATION="Bearer scrape-me-7f3a").status_code == 200


def test_people_and_agents_get_nothing_special(client, world):
    client.force_login(world.carol.user)
    with override_settings(MEMGOV_METRICS_TOKEN="scrape-me-7f3a"):
        assert client.get("/metrics").status_code == 404
        assert world.agent_client(world.demo_key).get("/metrics").status_code == 404
