"""handoff_create and handoff_get through the SDK's in-process client: the REST API's answers for the same
handoff, only the receiving key reads it, bad input names the field, and each key lists only its tools."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from governance.services.tenancy import agent_key_create

VOLATILE = {"id", "created_at"}


def _create(mcp_call, key, h, **change):
    arguments = {"session_id": h["session"]["id"], "task_id": "refund-42", "to_agent": "billing-agent", **change}
    return mcp_call(key, "handoff_create", arguments)


def _stable(body):
    return {k: v for k, v in body.items() if k not in VOLATILE}


def test_a_handoff_over_mcp_is_what_rest_hands_over_and_receives(world, handoff_world, mcp_call):
    h = handoff_world
    rest = (
        h["sender"]
        .post(
            "/api/v1/handoffs",
            {"session_id": h["session"]["id"], "task_id": "refund-42", "to_agent": "billing-agent"},
            format="json",
        )
        .json()
    )
    made = _create(mcp_call, world.demo_key, h).data
    assert _stable(made) == _stable(rest)
    assert {m["id"] for m in made["memories"]} == h["crossing"]

    receiver_key = h["receiver_key"]
    got = mcp_call(receiver_key, "handoff_get", {"handoff_id": made["id"]}).data
    assert _stable(got) == _stable(h["receiver"].get(f"/api/v1/handoffs/{rest['id']}").json())
    assert got["task_state"]["goal"] == "Refund order 42" and got["from_agent"] == "demo-agent"
    assert "furious" not in str(got) and not set(h["staying"].values()) & {m["id"] for m in got["memories"]}
    received = AuditEvent.objects.filter(tenant=world.demo, event="handoff_received", actor="agent:billing-agent")
    assert received.count() == 2 and all("Refund" not in str(row.details) for row in received)


def test_no_other_key_reads_a_handoff_not_even_its_sender_or_the_other_tenant(world, handoff_world, mcp_call):
    h = handoff_world
    made = _create(mcp_call, world.demo_key, h).data
    _third, third_key = agent_key_create(tenant=world.demo, name="third-agent", actor="test")
    for key in (third_key, world.demo_key, world.acme_key):
        got = mcp_call(key, "handoff_get", {"handoff_id": made["id"]})
        assert got.error and "not_found:" in got.text, got.text
    assert not AuditEvent.objects.filter(event="handoff_received").exists()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"to_agent": "nobody"}, "invalid_request: to_agent"),
        ({"to_agent": "acme-agent"}, "invalid_request: to_agent"),  # another tenant's key: unknown here
        ({"to_agent": "demo-agent"}, "invalid_request: to_agent"),  # itself
        ({"task_id": "never-started"}, "invalid_request: task_id"),
        ({"task_id": "../x"}, "invalid_request: task_id"),
        ({"to_agent": ""}, "to_agent"),
        ({"session_id": "not-a-uuid"}, "session_id"),
    ],
)
def test_bad_input_is_a_tool_error_naming_the_field_and_hands_nothing_over(
    world, handoff_world, mcp_call, change, expected
):
    got = _create(mcp_call, world.demo_key, handoff_world, **change)
    assert got.error and expected in got.text, got.text
    assert not AuditEvent.objects.filter(event="handoff_created").exists()


def test_the_other_tenants_key_cannot_hand_over_this_tenants_session(world, handoff_world, mcp_call):
    got = _create(mcp_call, world.acme_key, handoff_world, to_agent="acme-agent")
    assert got.error and "not_found:" in got.text, got.text
    assert not AuditEvent.objects.filter(event="handoff_created").exists()


def test_each_key_lists_and_calls_only_the_handoff_tool_its_scopes_grant(world, handoff_world, mcp_call, mcp_tools):
    h = handoff_world
    receiver_tools = {tool.name for tool in mcp_tools(h["receiver_key"])}
    assert receiver_tools == {"handoff_get"}
    assert "handoff_create" in {tool.name for tool in mcp_tools(world.demo_key)}
    refused = _create(mcp_call, h["receiver_key"], h, task_id="refund-99", to_agent="demo-agent")
    assert refused.error and "insufficient_scope:" in refused.text, refused.text


def test_a_receivers_name_with_spaces_around_it_is_the_receiver_as_over_rest(world, handoff_world, mcp_call):
    made = _create(mcp_call, world.demo_key, handoff_world, to_agent="  billing-agent ").data
    assert made["to_agent"] == "billing-agent"
