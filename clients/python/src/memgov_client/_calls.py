"""Each REST endpoint as a ``Call``: the one place that knows paths and field names (docs/api.md).

The sync and async clients send the same calls. A new endpoint family (the sessions API) is a new group
of functions here and a resource class in each client.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from urllib.parse import quote
from uuid import UUID

from memgov_client._http import Call

V1 = "/api/v1"


def _body(**fields: Any) -> dict[str, Any]:
    """The fields the caller gave: memgov's defaults apply to the rest."""
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if value is None:
            continue
        out[name] = value.isoformat() if isinstance(value, datetime) else value
    return out


def _id(value: str | UUID) -> str:
    return str(UUID(str(value)))  # a malformed id fails here, before it reaches a URL


def memory_write(
    *,
    content: str,
    scope: Mapping[str, Any],
    source: Mapping[str, Any],
    type: str | None,
    confidence: float | None,
    sensitivity: str | None,
    expires_at: datetime | str | None,
    on_behalf_of: str | None,
    session_id: str | None,
) -> Call:
    return Call(
        "POST",
        f"{V1}/memories/write",
        json=_body(
            content=content,
            scope=dict(scope),
            source=dict(source),
            type=type,
            confidence=confidence,
            sensitivity=sensitivity,
            expires_at=expires_at,
            on_behalf_of=on_behalf_of,
            session_id=session_id,
        ),
    )


def memory_context(
    *,
    scope: Mapping[str, Any],
    query: str | None,
    types: Iterable[str] | None,
    top_k: int | None,
    token_budget: int | None,
    instruction: str | None,
    language: str | None,
) -> Call:
    return Call(
        "POST",
        f"{V1}/memories/context",
        json=_body(
            scope=dict(scope),
            query=query,
            types=list(types) if types is not None else None,
            top_k=top_k,
            token_budget=token_budget,
            instruction=instruction,
            language=language,
        ),
    )


def memory_used(citation_ids: Iterable[str]) -> Call:
    return Call("POST", f"{V1}/memories/used", json={"citation_ids": list(citation_ids)})


def memory_list(*, user_id: str, limit: int | None, offset: int | None) -> Call:
    return Call("GET", f"{V1}/memories", params=_body(user_id=user_id, limit=limit, offset=offset))


def memory_get(memory_id: str | UUID) -> Call:
    return Call("GET", f"{V1}/memories/{_id(memory_id)}")


def memory_update(memory_id: str | UUID, *, content: str | None, type: str | None, reason: str | None) -> Call:
    return Call("PATCH", f"{V1}/memories/{_id(memory_id)}", json=_body(content=content, type=type, reason=reason))


def memory_delete(memory_id: str | UUID) -> Call:
    return Call("DELETE", f"{V1}/memories/{_id(memory_id)}")


def memory_status(memory_id: str | UUID, action: str) -> Call:
    return Call("POST", f"{V1}/memories/{_id(memory_id)}/{action}")


def memory_rollback(memory_id: str | UUID, *, version: int) -> Call:
    return Call("POST", f"{V1}/memories/{_id(memory_id)}/rollback", json={"version": version})


def confirmation_settle(confirmation_id: str | UUID, action: str, *, instruction_message_id: str | None = None) -> Call:
    body = _body(instruction_message_id=instruction_message_id)
    return Call("POST", f"{V1}/confirmations/{_id(confirmation_id)}/{action}", json=body or None)


def command_run(
    *,
    text: str,
    user_id: str | None,
    session_id: str | None,
    confirm: bool,
    memory_ids: Iterable[str | UUID] | None,
) -> Call:
    ids = [_id(i) for i in memory_ids] if memory_ids is not None else None
    body = _body(text=text, user_id=user_id, session_id=session_id, confirm=confirm, memory_ids=ids)
    return Call("POST", f"{V1}/commands", json=body)


def task_complete(task_id: str) -> Call:
    return Call("POST", f"{V1}/tasks/{_segment(task_id)}/complete")


def audit_export(*, format: str, start: datetime | str | None, end: datetime | str | None) -> Call:
    return Call("GET", f"{V1}/audit/export", params=_body(format=format, **{"from": start, "to": end}))


def _segment(value: str) -> str:
    if not value or value in (".", ".."):
        raise ValueError(f"not a usable path segment: {value!r}")
    return quote(value, safe="")


# The Sessions API (docs/sessions.md) and handoffs.


def session_create(*, user_id: str, app: str, workspace: str | None, title: str | None, dont_save: bool | None) -> Call:
    body = _body(user_id=user_id, app=app, workspace=workspace, title=title, dont_save=dont_save)
    return Call("POST", f"{V1}/sessions", json=body)


def session_list(
    *, user_id: str, app: str | None, workspace: str | None, last: bool, limit: int | None, offset: int | None
) -> Call:
    params = _body(user_id=user_id, app=app, workspace=workspace, limit=limit, offset=offset)
    if last:
        params["last"] = "true"
    return Call("GET", f"{V1}/sessions", params=params)


def session_get(session_id: str | UUID) -> Call:
    return Call("GET", f"{V1}/sessions/{_id(session_id)}")


def session_update(session_id: str | UUID, *, state: str | None, title: str | None, dont_save: bool | None) -> Call:
    return Call("PATCH", f"{V1}/sessions/{_id(session_id)}", json=_body(state=state, title=title, dont_save=dont_save))


def session_delete(session_id: str | UUID, *, forget_extracted: bool) -> Call:
    params = {"forget_extracted": "true"} if forget_extracted else None
    return Call("DELETE", f"{V1}/sessions/{_id(session_id)}", params=params)


def events_append(session_id: str | UUID, events: Iterable[Mapping[str, Any]]) -> Call:
    batch = [_event(e) for e in events]
    return Call("POST", f"{V1}/sessions/{_id(session_id)}/events", json={"events": batch})


def _event(event: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(event)
    if out.get("parent_id") is not None:
        out["parent_id"] = _id(out["parent_id"])
    return out


def events_branch(
    session_id: str | UUID, *, leaf: str | UUID | None, after: str | UUID | None, limit: int | None
) -> Call:
    params = _body(
        leaf=_id(leaf) if leaf is not None else None, after=_id(after) if after is not None else None, limit=limit
    )
    return Call("GET", f"{V1}/sessions/{_id(session_id)}/events", params=params)


def session_pop(session_id: str | UUID) -> Call:
    return Call("POST", f"{V1}/sessions/{_id(session_id)}/pop")


def session_fork(session_id: str | UUID, *, from_event_id: str | UUID, title: str | None) -> Call:
    body = _body(from_event_id=_id(from_event_id), title=title)
    return Call("POST", f"{V1}/sessions/{_id(session_id)}/fork", json=body)


def session_state(session_id: str | UUID, *, at: str | UUID | None) -> Call:
    return Call("GET", f"{V1}/sessions/{_id(session_id)}/state", params=_body(at=_id(at) if at else None))


def session_compact(session_id: str | UUID) -> Call:
    return Call("POST", f"{V1}/sessions/{_id(session_id)}/compact")


def session_context(session_id: str | UUID, *, token_budget: int) -> Call:
    return Call("POST", f"{V1}/sessions/{_id(session_id)}/context", json={"token_budget": token_budget})


def task_state_get(task_id: str, *, session_id: str | UUID, at: str | UUID | None) -> Call:
    params = _body(session_id=_id(session_id), at=_id(at) if at else None)
    return Call("GET", f"{V1}/tasks/{_segment(task_id)}", params=params)


def task_state_put(task_id: str, *, session_id: str | UUID, values: Mapping[str, Any]) -> Call:
    return Call("PUT", f"{V1}/tasks/{_segment(task_id)}", params={"session_id": _id(session_id)}, json=dict(values))


def handoff_create(*, session_id: str | UUID, task_id: str, to_agent: str) -> Call:
    body = {"session_id": _id(session_id), "task_id": task_id, "to_agent": to_agent}
    return Call("POST", f"{V1}/handoffs", json=body)


def handoff_get(handoff_id: str | UUID) -> Call:
    return Call("GET", f"{V1}/handoffs/{_id(handoff_id)}")
