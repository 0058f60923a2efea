"""alice's demo sessions, made through the session services: a refund review with its task state, compacted,
a docs conversation with a fork that tried another way, and a weekly report still open — end it
(``PATCH /api/v1/sessions/<id>`` with ``{"state": "ended"}``) and phase 1 extraction turns what alice
said into governed memories, one of them an inference waiting for her confirmation. Seeded once
(seed_demo runs again harmlessly)."""

from __future__ import annotations

from conversations.models import Session
from conversations.services.compaction import session_compact
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import SessionChange, session_create, session_fork, session_update
from conversations.services.tasks import task_state_update
from conversations.services.tool_results import ToolResult
from governance.models import Tenant

ACTOR = "agent:demo-agent"
APP = "demo-agent"
WEEKLY_TITLE = "Weekly status report"


def _say(tenant: Tenant, session: Session, *events: NewEvent) -> list:
    appended = session_events_append(tenant_id=tenant.pk, session_id=session.pk, events=list(events), actor=ACTOR)
    return [item.event for item in appended]


def _user(text: str) -> NewEvent:
    return NewEvent(kind="user_message", content=text)


def _assistant(text: str) -> NewEvent:
    return NewEvent(kind="assistant_message", content=text)


def seed_demo_sessions(tenant: Tenant) -> None:
    if Session.objects.filter(tenant=tenant, user_id="alice", app=APP).exists():
        return
    refund = session_create(
        tenant_id=tenant.pk, user_id="alice", app=APP, workspace="ledger-api", title="Refund review for order 123",
        actor=ACTOR,
    )  # fmt: skip
    _say(
        tenant,
        refund,
        _user("Does the enterprise refund for order 123 need a manual review?"),
        NewEvent(kind="tool_call", content='{"tool": "orders.get", "order": 123}', tool_call_id="call_orders_1"),
        NewEvent(
            kind="tool_result",
            content='{"order": 123, "status": "pending", "total": "4,800.00 EUR"}',
            tool_call_id="call_orders_1",
        ),
        _assistant("Order 123 is pending and over the 3,000 EUR threshold, so finance has to approve it."),
        NewEvent(kind="state_delta", state_delta={"order": 123, "user:currency": "EUR"}),
    )
    task_state_update(
        tenant_id=tenant.pk,
        session_id=refund.pk,
        task_id="refund-review-123",
        values={
            "goal": "Decide whether the refund for order 123 needs a manual review",
            "current_step": "waiting_for_finance_review",
            "completed_steps": ["collect_order", "check_invoice"],
            "pending_fields": ["approval_owner"],
            "approval_status": "pending",
        },
        actor=ACTOR,
    )
    _say(
        tenant,
        refund,
        NewEvent(
            kind="tool_result",
            content='{"approval": "approved", "by": "finance"}',
            tool_call_id="call_approval_1",
            task_id="refund-review-123",
            tool_result=ToolResult(type="approval", approval_status="approved"),
        ),
        _assistant("Finance approved the refund; I'll send the confirmation."),
        _user("Thanks! Yes, please send it."),
    )
    session_compact(tenant_id=tenant.pk, session_id=refund.pk, actor=ACTOR)
    _say(tenant, refund, _user("Did the customer get the confirmation?"))

    docs = session_create(
        tenant_id=tenant.pk, user_id="alice", app=APP, workspace="dispatch-docs", title="Changelog for the AI Wiki",
        actor=ACTOR,
    )  # fmt: skip
    events = _say(
        tenant,
        docs,
        _user("Write the changelog entry for the new memory governance chapter."),
        _assistant("Here is a draft: 'Added the memory governance chapter (write pipeline, audit).'"),
        _user("Make it shorter."),
        _assistant("'Added: memory governance chapter.'"),
    )
    other_way = session_fork(
        tenant_id=tenant.pk, session_id=docs.pk, from_event_id=events[1].pk, actor=ACTOR,
        title="Changelog for the AI Wiki (longer version)",
    )  # fmt: skip
    _say(tenant, other_way, _user("Keep it long, but list the three sections."))
    session_update(tenant_id=tenant.pk, session_id=docs.pk, change=SessionChange(state="ended"), actor=ACTOR)

    weekly = session_create(
        tenant_id=tenant.pk, user_id="alice", app=APP, workspace="dispatch-docs", title=WEEKLY_TITLE, actor=ACTOR
    )
    _say(
        tenant,
        weekly,
        _user("帮我写这周的周报：完成了记忆治理一章，下周做评测。"),
        _assistant("本周完成了记忆治理一章的编写；下周计划开展评测工作。"),
        _user("Remember: my weekly reports always start with the conclusion."),
        _assistant("Noted: conclusion first in your weekly reports."),
        _user("改成要点形式。"),
        _assistant("- 完成：记忆治理一章\n- 下周：评测"),
        _user("把风险那段也改成要点。"),
        _assistant("- 风险：评测数据集还没定"),
        _assistant("我注意到你几次都让我把内容改成要点形式，看起来你更偏好要点式的回答。需要我记住吗？"),
    )
