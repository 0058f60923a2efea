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

from dataclasses import dataclass, field
from typing import Any

from conversations.models import Event, Session
from conversations.selectors.events import branch_events
from conversations.vocabulary import PROJECTED_ROLES, EventKind
from memories.read.tokens import estimate_tokens

MESSAGE_OVERHEAD = 4  # tokens a chat format spends per message on its role and separators
WINDOW = 256  # events fetched per step of the walk back from the leaf


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


def _message(event: Event, content: str | None = None) -> dict[str, Any]:
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


def _tail(session: Session, budget: int) -> tuple[Event | None, list[Event]]:
    """The latest compaction on the branch and the projectable events after what it covers, oldest
    first — read back from the leaf in windows, stopping once the budget is spent or a summary found."""
    if session.leaf_id is None:
        return None, []
    limit = WINDOW
    while True:
        events = branch_events(tenant_id=session.tenant_id, leaf_id=session.leaf_id, limit=limit)
        compaction = next((e for e in reversed(events) if e.kind == EventKind.COMPACTION), None)
        through = (compaction.meta or {}).get("through_depth", 0) if compaction is not None else 0
        after = [
            e
            for e in events
            if e.depth > through and e.kind != EventKind.COMPACTION and EventKind(e.kind) in PROJECTED_ROLES
        ]
        reached_root = len(events) < limit
        spent = sum(e.tokens + MESSAGE_OVERHEAD for e in after) > budget
        if compaction is not None or reached_root or spent:
            return compaction, after
        limit *= 4


def session_context_build(*, session: Session, token_budget: int) -> Projection:
    compaction, after = _tail(session, token_budget)
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
    projection.omitted = len(after) - len(earlier)
    projection.messages = [*([summary] if summary else []), *reversed(earlier), *([newest] if newest else [])]
    projection.tokens = token_budget - left
    return projection
