"""alice's refund session handed from one agent to another: the world the handoff tests of REST and MCP share."""

from __future__ import annotations

import pytest

from governance.services.tenancy import agent_key_create
from governance.vocabulary import AgentScope, Level, Status
from memories.models import Memory

TASK = {"goal": "Refund order 42", "current_step": "approve the refund", "completed_steps": ["find the order"]}


@pytest.fixture
def handoff_world(world, make_memory):
    """alice's refund session with history, a task state and memories of every kind that may or may not cross."""
    sender = world.agent_client(world.demo_key)
    session = sender.post("/api/v1/sessions", {"user_id": "alice", "app": "support"}, format="json").json()
    history = [
        {"kind": "user_message", "content": "Refund order 42 please, I'm furious"},
        {"kind": "assistant_message", "content": "Private reasoning: she may be bluffing about the damage"},
    ]
    appended = sender.post(f"/api/v1/sessions/{session['id']}/events", {"events": history}, format="json")
    assert appended.status_code == 201
    put = sender.put(f"/api/v1/tasks/refund-42?session_id={session['id']}", TASK, format="json")
    assert put.status_code == 200
    other_task = sender.put(f"/api/v1/tasks/refund-99?session_id={session['id']}", {"goal": "x"}, format="json")
    assert other_task.status_code == 200

    def memory(content, **kwargs):
        status = kwargs.pop("status", None)
        sensitivity = kwargs.pop("sensitivity", None)
        made = make_memory(world.demo, content, **kwargs)
        changes = {k: v for k, v in {"status": status, "sensitivity": sensitivity}.items() if v}
        if changes:
            Memory.objects.filter(pk=made.pk).update(**changes)
        return str(made.pk)

    crossing = {
        memory("Prefers replies by email", user_id="alice"),
        memory("Refunds above 100 EUR need a second approval", type="organization_rule", level=Level.TENANT),
        memory("Order 42 verified", user_id="alice", level=Level.TASK, type="task_state", task_id="refund-42"),
        memory(
            "Order lookup: 42 shipped 03-01",
            user_id="alice",
            level=Level.SESSION,
            type="tool_result_ref",
            session_id=session["id"],
            source_type="tool_result",
        ),
    }
    staying = {
        "inference": memory(
            "Prefers terse answers", user_id="alice", source_type="agent_inference", status=Status.PENDING_CONFIRMATION
        ),
        "sensitive": memory("Prefers payouts to account DE89 3704", user_id="alice", sensitivity="high"),
        "unrelated": memory("Works at the Berlin office", user_id="alice", type="user_profile"),
        "other_task": memory(
            "Order 99 lost", user_id="alice", level=Level.TASK, type="task_state", task_id="refund-99"
        ),
        "bobs": memory("Prefers replies by phone", user_id="bob"),
        "unapproved": memory(
            "Refund everything", type="organization_rule", level=Level.TENANT, status=Status.PENDING_APPROVAL
        ),
    }
    _receiver, receiver_key = agent_key_create(
        tenant=world.demo, name="billing-agent", actor="test", scopes=[AgentScope.HANDOFFS_READ]
    )
    return {
        "session": session,
        "sender": sender,
        "receiver": world.agent_client(receiver_key),
        "receiver_key": receiver_key,
        "crossing": crossing,
        "staying": staying,
    }
