"""Session tools: start a session, append to it, its context for the next model call, task state. Each is
the Sessions API endpoint of the same job (docs/sessions.md), calling the same conversations service with
the same arguments, so the scopes, errors and audit events are the REST API's."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from answers.shapes import appended_out, projection_out, session_out, task_out
from conversations.access import session_for_caller
from conversations.selectors.context import session_context_build
from conversations.selectors.events import event_visible_to
from conversations.selectors.state import session_state_at
from conversations.selectors.tasks import task_state_get
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import session_create
from conversations.services.tasks import task_state_update
from conversations.vocabulary import ApprovalStatus
from mcpserver.calls import Binding, governed, subject_for
from mcpserver.schemas import EventArg, Id, StepsArg, TaskText
from mcpserver.tools_memory import READ, WRITE
from memories.access import Caller

APPEND_DESCRIPTION = """Record what happened in a session, in order: the person's messages, your answers, tool
calls and results, state changes (`events`, 1 to 100; each goes after the previous one, the first after the
session's leaf unless it names `parent_id`). The history is stored encrypted and append-only; it is the person's
to see and delete. Answers each event's id and `seq`, and the new `leaf_id`."""

CONTEXT_DESCRIPTION = """The session's history as the next model call should see it, within `token_budget`: the
latest summary first (when the session was compacted), then the messages after it, newest kept first."""


def register(server: MCPServer, fallback: Binding | None) -> None:
    @server.tool(
        name="session_start",
        description="A new session for a person in an app (`user_id`, `app`); answers its `id` for session_append. "
        "`dont_save` true: nothing from it ever becomes long-term memory.",
        annotations=WRITE,
    )
    async def session_start(
        ctx: Context,
        app: Id = "default",
        user_id: Id = "",
        workspace: Id = "",
        title: TaskText = "",
        dont_save: bool = False,
    ) -> dict[str, Any]:
        def work(caller: Caller, binding: Binding) -> dict[str, Any]:
            session = session_create(
                tenant_id=caller.tenant_id,
                user_id=subject_for(binding, user_id),
                app=app,
                workspace=workspace,
                title=title or None,
                dont_save=dont_save,
                actor=caller.actor,
            )
            return session_out(session, state=session_state_at(session=session))

        return await governed(ctx, fallback, "session_start", work)

    @server.tool(name="session_append", description=APPEND_DESCRIPTION, annotations=WRITE)
    async def session_append(session_id: UUID, events: list[EventArg], ctx: Context) -> dict[str, Any]:
        if not 1 <= len(events) <= 100:
            raise ToolError("invalid_request: events: send 1 to 100 events.")

        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            session = session_for_caller(caller, session_id)
            appended = session_events_append(
                tenant_id=caller.tenant_id,
                session_id=session.pk,
                events=[
                    NewEvent(
                        kind=e.kind,
                        content=e.content,
                        state_delta=e.state_delta,
                        parent_id=e.parent_id,
                        tool_call_id=e.tool_call_id,
                        task_id=e.task_id,
                    )
                    for e in events
                ],
                actor=caller.actor,
                agent=caller.agent,
            )
            return {"events": [appended_out(item) for item in appended], "leaf_id": str(appended[-1].event.pk)}

        return await governed(ctx, fallback, "session_append", work)

    @server.tool(name="session_context", description=CONTEXT_DESCRIPTION, annotations=READ)
    async def session_context(session_id: UUID, ctx: Context, token_budget: int = 4000) -> dict[str, Any]:
        if not 16 <= token_budget <= 1_000_000:
            raise ToolError("invalid_request: token_budget: use 16 to 1000000.")

        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            session = session_for_caller(caller, session_id)
            return projection_out(session_context_build(session=session, token_budget=token_budget))

        return await governed(ctx, fallback, "session_context", work)

    @server.tool(
        name="task_state_get",
        description="A task's structured state in a session (goal, current_step, completed_steps, pending_fields, "
        "approval_status, last_tool_result_id, next_action, status), now or `at` an event of the session.",
        annotations=READ,
    )
    async def task_state_get_tool(
        task_id: Id, session_id: UUID, ctx: Context, at: UUID | None = None
    ) -> dict[str, Any]:
        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            session = session_for_caller(caller, session_id)
            position = None
            if at is not None:
                position = event_visible_to(session=session, event_id=at)
                if position is None:
                    raise ToolError("invalid_request: at: No such event in this session.")
            state = task_state_get(session=session, task_id=task_id, at=position)
            if state is None:
                raise ToolError("not_found: No such resource.")
            return task_out(state.values, task_id=task_id, session_id=session.pk, at_event_id=state.at_event_id)

        return await governed(ctx, fallback, "task_state_get", work)

    @server.tool(
        name="task_state_update",
        description="Replace a task's state in a session (fields you omit take their defaults); the change is "
        "appended to the session as an event, so every version can be read back. Refused once the task is completed.",
        annotations=WRITE,
    )
    async def task_state_update_tool(
        task_id: Id,
        session_id: UUID,
        ctx: Context,
        goal: TaskText = "",
        current_step: TaskText = "",
        completed_steps: StepsArg = (),
        pending_fields: StepsArg = (),
        approval_status: Literal[tuple(s.value for s in ApprovalStatus)] = ApprovalStatus.NONE.value,  # type: ignore[valid-type]
        last_tool_result_id: TaskText = "",
        next_action: TaskText = "",
    ) -> dict[str, Any]:
        values = {
            "goal": goal,
            "current_step": current_step,
            "completed_steps": list(completed_steps),
            "pending_fields": list(pending_fields),
            "approval_status": approval_status,
            "last_tool_result_id": last_tool_result_id,
            "next_action": next_action,
        }

        def work(caller: Caller, _binding: Binding) -> dict[str, Any]:
            session = session_for_caller(caller, session_id)
            event, after = task_state_update(
                tenant_id=caller.tenant_id, session_id=session.pk, task_id=task_id, values=values, actor=caller.actor
            )
            return task_out(after, task_id=task_id, session_id=session.pk, at_event_id=event.pk)

        return await governed(ctx, fallback, "task_state_update", work)
