"""The projection of a session's history for the next model call (seed 001: stored history is not the
context), within a token budget.

What it holds, by priority when the budget is short:

1. the newest message of the branch (the turn being answered) — cut to the budget if it alone is larger;
2. the latest compaction summary — cut line by line from its end (its sections run from goal and
   confirmed facts to uncertainties) when it doesn't fit whole;
3. the messages after the summary, newest first, as many as fit.

They are returned oldest first, summary first. Bookkeeping events (state changes, labels, model changes)
are never sent to a model.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from conversations.models import Event, Session
from conversations.selectors.events import StoredEvent, events_by_id
from conversations.sql import as_uuid, table, uuid_param
from conversations.vocabulary import PROJECTED_ROLES, EventKind
from memories.read.tokens import estimate_tokens

MESSAGE_OVERHEAD = 4  # tokens a chat format spends per message on its role and separators


@dataclass
class Projection:
    messages: list[dict[str, Any]] = field(default_factory=list)
    tokens: int = 0
    summary_event_id: str | None = None
    omitted: int = 0  # messages after the summary that didn't fit
    truncated: bool = False


def _cut_to(text: str, budget: int) -> str:
    """The longest prefix of ``text`` (at a whitespace where there is one) within ``budget`` tokens."""
    if budget <= 0:
        return ""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if estimate_tokens(text[:mid]) <= budget:
            low = mid
        else:
            high = mid - 1
    cut = text[:low]
    space = cut.rfind(" ")
    return cut[:space] if low < len(text) and space > len(cut) // 2 else cut


def _cut_lines(text: str, budget: int) -> str:
    lines = text.splitlines()
    while lines and estimate_tokens("\n".join(lines)) > budget:
        lines.pop()
    return "\n".join(lines)


def _message(event: StoredEvent, content: str | None = None) -> dict[str, Any]:
    message = {
        "role": PROJECTED_ROLES[EventKind(event.kind)],
        "kind": event.kind,
        "content": event.content if content is None else content,
        "event_id": str(event.pk),
        "seq": event.seq,
    }
    if event.tool_call_id:
        message["tool_call_id"] = event.tool_call_id
    return message


_PROJECTED = tuple(kind.value for kind in PROJECTED_ROLES if kind != EventKind.COMPACTION)


def _walk(session: Session, *, through: int, budget: int) -> list[tuple[uuid.UUID, int, str, int]]:
    """(id, depth, kind, tokens) of the projectable events from the leaf back, newest first: one walk up the
    parent pointers that stops at the summary's coverage or once the budget is spent (one event more, so
    the newest message is there even when it alone is larger). No content is read."""
    events = table(Event)
    kinds = ", ".join(["%s"] * len(_PROJECTED))
    cost = f"CASE WHEN kind IN ({kinds}) THEN tokens + {MESSAGE_OVERHEAD} ELSE 0 END"
    sql = (
        f"WITH RECURSIVE up(id, parent_id, depth, kind, tokens, spent) AS ("  # noqa: S608
        f" SELECT id, parent_id, depth, kind, tokens, {cost} FROM {events} WHERE id = %s AND tenant_id = %s"
        f" UNION ALL SELECT e.id, e.parent_id, e.depth, e.kind, e.tokens, up.spent + "
        f"CASE WHEN e.kind IN ({kinds}) THEN e.tokens + {MESSAGE_OVERHEAD} ELSE 0 END"
        f" FROM {events} e JOIN up ON e.id = up.parent_id WHERE up.spent <= %s AND e.depth > %s AND e.tenant_id = %s)"
        f" SELECT id, depth, kind, tokens FROM up WHERE kind IN ({kinds}) AND depth > %s ORDER BY depth DESC"
    )
    params = [*_PROJECTED, uuid_param(session.leaf_id), session.tenant_id, *_PROJECTED, budget, through]
    params += [session.tenant_id, *_PROJECTED, through]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [(as_uuid(row[0]), row[1], row[2], row[3]) for row in cursor.fetchall()]  # type: ignore[misc]


def session_context_build(*, session: Session, token_budget: int) -> Projection:
    if session.leaf_id is None:
        return Projection()
    compaction = None
    through = 0
    if session.leaf_summary_id is not None:
        compaction = events_by_id(tenant_id=session.tenant_id, ids=[session.leaf_summary_id])[0]
        through = (compaction.meta or {}).get("through_depth", 0)
    newest_first = _walk(session, through=through, budget=token_budget)
    by_id = {e.pk: e for e in events_by_id(tenant_id=session.tenant_id, ids=[row[0] for row in newest_first])}
    after = [by_id[row[0]] for row in reversed(newest_first)]  # oldest first
    # Events after the summary that the walk never reached, because the budget was spent first.
    unread = (after[0].depth - through - 1) if after else max(0, session.leaf_depth - through)
    projection = Projection(summary_event_id=str(compaction.pk) if compaction is not None else None)
    left = token_budget
    newest: dict[str, Any] | None = None
    if after:
        last = after.pop()
        cost = last.tokens + MESSAGE_OVERHEAD
        if cost <= left:
            newest = _message(last)
        else:
            newest = _message(last, _cut_to(last.content or "", left - MESSAGE_OVERHEAD))
            projection.truncated = True
            cost = estimate_tokens(newest["content"]) + MESSAGE_OVERHEAD
        left -= cost
    summary: dict[str, Any] | None = None
    if compaction is not None and left > MESSAGE_OVERHEAD:
        text = compaction.content or ""
        cost = estimate_tokens(text) + MESSAGE_OVERHEAD
        if cost > left:
            text = _cut_lines(text, left - MESSAGE_OVERHEAD)
            projection.truncated = True
            cost = estimate_tokens(text) + MESSAGE_OVERHEAD
        if text:
            summary = _message(compaction, text)
            left -= cost
    elif compaction is not None:
        projection.truncated = True
    earlier: list[dict[str, Any]] = []
    for event in reversed(after):
        cost = event.tokens + MESSAGE_OVERHEAD
        if cost > left:
            break
        earlier.append(_message(event))
        left -= cost
    projection.omitted = unread + len(after) - len(earlier)  # after: what is left once the newest was taken
    projection.messages = [*([summary] if summary else []), *reversed(earlier), *([newest] if newest else [])]
    projection.tokens = token_budget - left
    return projection
