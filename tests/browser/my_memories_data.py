"""Shared by the "My memories" browser tests: alice's demo memories and the agent API calls they check."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import Page

from governance.pipeline.base import Scope
from governance.vocabulary import Level
from memories.models import Memory
from memories.services.records import NewMemory, memory_create

ALICE = [
    # (scope, type, content, source, sensitivity, reason code)
    (Scope(Level.USER, user_id="alice"), "user_preference", "用户偏好中文、分步骤、带检查清单的回答。",
     "explicit_user_confirmation", "low", "explicit_request"),
    (Scope(Level.USER, user_id="alice"), "user_preference", "Prefers Markdown tables when comparing options.",
     "explicit_user_request", "low", "explicit_request"),
    (Scope(Level.USER, user_id="alice"), "user_profile",
     "Maintains the dispatch-docs documentation site as a backend engineer.", "explicit_user_request", "medium",
     "explicit_request"),
    (Scope(Level.PROJECT, user_id="alice", project="dispatch-docs"), "project_rule",
     "After changing AI Wiki content, update docs/changelog.md.", "explicit_user_request", "low", "explicit_request"),
    (Scope(Level.TASK, user_id="alice", task_id="task-wiki-42"), "task_state",
     "任务进度：已补充 AI Wiki 概览，下一步补充记忆治理章节。", "task_state_machine", "low", "short_lived"),
    (Scope(Level.SESSION, user_id="alice", session_id="sess-demo-1"), "temporary_context",
     "This session is about the annual offsite budget.", "user_statement", "low", "short_lived"),
]  # fmt: skip


def seed_alice(world) -> list[Memory]:
    """Alice's demo memories, written by the demo agent (as seed_demo would, with reasons and message ids)."""
    made = []
    for index, (scope, type_, content, source, sensitivity, reason) in enumerate(ALICE):
        short = scope.level in (Level.TASK, Level.SESSION)
        made.append(
            memory_create(
                tenant_id=world.demo.pk,
                new=NewMemory(
                    scope=scope,
                    type=type_,
                    content=content,
                    source_type=source,
                    source_message_id=f"msg-{100 + index}",
                    confidence=0.95,
                    sensitivity=sensitivity,
                    reason_code=reason,
                    expires_at=timezone.now() + timedelta(hours=20) if short else None,
                ),
                actor="agent:demo-agent",
                agent=world.demo_agent,
            )
        )
    return made


def agent_context(page: Page, live_server, key: str, query: str) -> dict:
    response = page.request.post(
        f"{live_server.url}/api/v1/memories/context",
        headers={"Authorization": f"Bearer {key}"},
        data={"scope": {"user_id": "alice"}, "query": query},
    )
    assert response.ok, response.text()
    return response.json()


def agent_write(page: Page, live_server, key: str, content: str, **extra) -> dict:
    body = {
        "type": "user_preference",
        "content": content,
        "scope": {"level": "user", "user_id": "alice"},
        "source": {"source_type": "explicit_user_request", "source_message_id": "msg-900"},
        **extra,
    }
    response = page.request.post(
        f"{live_server.url}/api/v1/memories/write", headers={"Authorization": f"Bearer {key}"}, data=body
    )
    assert response.ok, response.text()
    return response.json()


def agent_call(page: Page, live_server, key: str, method: str, path: str, body: dict | None = None) -> dict:
    """Any agent API call, through the browser's request context (so it reaches the live server)."""
    response = page.request.fetch(
        f"{live_server.url}{path}",
        method=method,
        headers={"Authorization": f"Bearer {key}"},
        data=body,
    )
    assert response.ok, response.text()
    return response.json() if response.status != 204 else {}


def agent_session(page: Page, live_server, key: str, *, title: str, messages: list[str]) -> dict:
    """A session of alice's that an agent keeps: created, then a user and an assistant message per pair."""
    session = agent_call(page, live_server, key, "POST", "/api/v1/sessions", {"user_id": "alice", "app": "chat",
                                                                              "title": title})  # fmt: skip
    events = [{"kind": "user_message" if i % 2 == 0 else "assistant_message", "content": text}
              for i, text in enumerate(messages)]  # fmt: skip
    agent_call(page, live_server, key, "POST", f"/api/v1/sessions/{session['id']}/events", {"events": events})
    return session
