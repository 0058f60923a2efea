"""``MemgovSession``: the OpenAI Agents SDK's ``Session`` protocol on a memgov session, so an agent's history
is encrypted, kept for the tenant's retention, deletable by the person and a source for extraction.

Each item is one event of the memgov session, its content the item's JSON (so ``get_items`` gives back
exactly what ``add_items`` took), its kind what the item is: a user message ``user_message``, an assistant
message ``assistant_message``, a tool call ``tool_call`` and its output ``tool_result``; system and
developer messages, reasoning and anything else are ``label`` events, which memgov never projects into
a model's context nor extracts memories from. A plain-text message appended by another client reads back
as ``{"role": …, "content": text}``.

``get_items`` reads the session's branch once, then only the events appended since the last one it read
(``after`` it): usually one request answering nothing or a turn's few items. What it read stays with the
instance (the items' JSON, as much of the branch as a read has needed); when that last event is no longer on
the branch (another instance popped it, or cleared the session), the branch is read again from its leaf.

The SDK's ``session_id`` names the memgov session: a memgov session id (a UUID) is used as it is; any
other string is looked up as the subject's session of ``app`` whose ``workspace`` is ``agents:<id>``,
and created on the first ``add_items``. ``clear_session`` deletes the memgov session (its events,
snapshots and session memories, audited); the next ``add_items`` starts a new one under the same name.

Install with the ``openai-agents`` extra: ``pip install "./clients/python[openai-agents]"``.
"""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from agents.memory.session_settings import SessionSettings, coerce_session_settings, resolve_session_limit

from memgov_client.client import Client
from memgov_client.errors import BadRequest, Conflict, NotFound

if TYPE_CHECKING:
    from agents.items import TResponseInputItem

WORKSPACE_PREFIX = "agents:"
PAGE = 1000  # events per branch read (the API's largest page)
ITEM_KINDS = ("user_message", "assistant_message", "tool_call", "tool_result", "label")


def item_kind(item: dict[str, Any]) -> str:
    """The memgov event kind an SDK item is stored as."""
    kind = str(item.get("type") or "")
    role = item.get("role")
    if kind in ("", "message") and role == "user":
        return "user_message"
    if kind in ("", "message") and role == "assistant":
        return "assistant_message"
    if kind.endswith("_call_output") or kind == "mcp_approval_response":
        return "tool_result"
    if kind.endswith("_call") or kind == "mcp_approval_request":
        return "tool_call"
    return "label"  # system/developer messages, reasoning, compaction items: never a model's context here


def _item_text(kind: str, content: str | None) -> str | None:
    """The JSON of the SDK item an event holds, or None for memgov's own events (state changes, summaries,
    handoffs)."""
    if kind not in ITEM_KINDS or content is None:
        return None
    try:
        item = json.loads(content)
    except ValueError:
        item = None
    if isinstance(item, dict):
        return content
    if kind in ("user_message", "assistant_message"):
        return json.dumps({"role": kind.split("_")[0], "content": content})
    return None


def _item(event: dict[str, Any]) -> dict[str, Any] | None:
    """The SDK item an event holds, or None."""
    text = _item_text(event["kind"], event["content"])
    return json.loads(text) if text is not None else None


def _texts(events: list[Any]) -> tuple[str, ...]:
    return tuple(text for text in (_item_text(e["kind"], e["content"]) for e in events) if text is not None)


@dataclass(frozen=True)
class _Read:
    """What an instance has read of its session's branch: the items of its events after ``earlier`` up to
    ``last``, each as its JSON so that every caller gets items of its own. ``earlier`` is where the branch
    goes on above the oldest event read (the ``leaf`` of the next page back; ``last`` itself when a pop left
    nothing read), None when the items run from the root.

    The events up to an event never change (a pop or an append moves the leaf, not the event's ancestors),
    so a ``_Read`` stays true of its ``last`` for good; whether ``last`` is still on the branch is the
    server's to say, on the next read ``after`` it."""

    memgov_id: str
    items: tuple[str, ...]
    last: str
    earlier: str | None


class MemgovSession:
    """``MemgovSession(session_id, *, base_url, api_key, user_id, app="default")``: pass it to ``Runner.run(...,
    session=...)`` as the SDK's ``SQLiteSession``. ``client`` lends a ``memgov_client.Client``."""

    def __init__(
        self,
        session_id: str,
        *,
        base_url: str = "",
        api_key: str = "",
        user_id: str,
        app: str = "default",
        session_settings: SessionSettings | dict[str, Any] | None = None,
        client: Client | None = None,
    ) -> None:
        if client is None and not (base_url and api_key):
            raise ValueError("MemgovSession needs base_url and api_key (or a client)")
        self.session_id = session_id
        self.session_settings = coerce_session_settings(session_settings) if session_settings else SessionSettings()
        self.user_id = user_id
        self.app = app
        self._owns_client = client is None
        self._client = client or Client(base_url, api_key)
        self._memgov_id: str | None = None
        self._read_so_far: _Read | None = None
        self._lock = threading.Lock()  # one resolution (and creation) at a time; guards both fields above

    # The memgov session behind the SDK's id.

    @property
    def memgov_session_id(self) -> str | None:
        """The memgov session's id once it exists (after the first ``add_items``, or when found)."""
        with self._lock:
            return self._resolve(create=False)

    def _resolve(self, *, create: bool) -> str | None:
        if self._memgov_id is not None:
            return self._memgov_id
        try:
            self._memgov_id = str(uuid.UUID(self.session_id))
            return self._memgov_id
        except ValueError:
            pass
        workspace = WORKSPACE_PREFIX + self.session_id
        found = self._client.sessions.list(user_id=self.user_id, app=self.app, workspace=workspace, last=True)
        if found["results"]:
            self._memgov_id = found["results"][0]["id"]
        elif create:
            made = self._client.sessions.create(user_id=self.user_id, app=self.app, workspace=workspace)
            self._memgov_id = made["id"]
        return self._memgov_id

    def _with_session(self, work: Any, *, create: bool) -> Any:
        """``work(memgov_id)``; when the session was deleted meanwhile (cleared by another instance, or by the
        person), resolved once more by its name, as a new instance would resolve it. A read of a session that
        is gone is empty; a write to a memgov session id that is gone raises ``NotFound``."""
        for retry in (False, True):
            with self._lock:
                memgov_id = self._resolve(create=create)
            if memgov_id is None:
                return None
            try:
                return work(memgov_id)
            except NotFound:
                with self._lock:
                    self._memgov_id = None
                    self._read_so_far = None
                if retry or _is_uuid(self.session_id):
                    if create:
                        raise
                    return None
        return None

    # The Session protocol.

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The history, oldest first; with ``limit`` (or the session settings' limit) only the latest items."""
        wanted = resolve_session_limit(limit, self.session_settings)
        if wanted is not None and wanted <= 0:
            return []
        return await asyncio.to_thread(self._with_session, lambda sid: self._read(sid, wanted), create=False) or []

    def _read(self, memgov_id: str, wanted: int | None) -> list[Any]:
        with self._lock:
            known = self._read_so_far
        read = self._newer(known) if known is not None and known.memgov_id == memgov_id else None
        if read is None:  # nothing read yet, or the last event read is off the branch now: from the leaf
            read = self._page(memgov_id, None, wanted)
        while read is not None and read.earlier is not None and (wanted is None or len(read.items) < wanted):
            read = self._page(memgov_id, read, wanted)
        with self._lock:
            self._read_so_far = read
        if read is None:
            return []
        return [json.loads(text) for text in (read.items if wanted is None else read.items[-wanted:])]

    def _newer(self, known: _Read) -> _Read | None:
        """``known`` with the events appended after its last one, a page at a time from the leaf back; None
        when the server refuses that cursor (popped or forked away: no longer on the branch)."""
        events: list[Any] = []
        leaf: str | None = None
        while True:
            try:
                branch = self._client.sessions.events(known.memgov_id, leaf=leaf, after=known.last, limit=PAGE)
            except BadRequest as error:
                if error.field == "after":
                    return None
                raise
            events[:0] = branch["events"]
            if not branch["has_more"]:
                break
            leaf = branch["next_leaf"]
        if not events:
            return known
        return replace(known, items=known.items + _texts(events), last=events[-1]["id"])

    def _page(self, memgov_id: str, below: _Read | None, wanted: int | None) -> _Read | None:
        """The page of the branch above what ``below`` holds, joined to it; with ``below`` None, the branch's
        last page (None when the branch is empty). A page holds as many events as items are still wanted:
        some events are memgov's own, not items, so a page may give fewer and the caller asks again."""
        have = len(below.items) if below is not None else 0
        size = PAGE if wanted is None else min(PAGE, max(wanted - have, 1))
        branch = self._client.sessions.events(memgov_id, leaf=below.earlier if below else None, limit=size)
        items = _texts(branch["events"])
        if below is not None:
            return replace(below, items=items + below.items, earlier=branch["next_leaf"])
        if not branch["events"]:
            return None
        return _Read(memgov_id, items, branch["events"][-1]["id"], branch["next_leaf"])

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        if not items:
            return
        events = [
            {"kind": item_kind(dict(item)), "content": json.dumps(item, ensure_ascii=False, separators=(",", ":"))}
            for item in items
        ]

        def append(memgov_id: str) -> None:
            for start in range(0, len(events), 100):  # the API's batch limit; each batch is one transaction
                batch = events[start : start + 100]
                appended = self._client.sessions.append(memgov_id, batch)
                self._appended(memgov_id, batch, appended["events"])

        await asyncio.to_thread(self._with_session, append, create=True)

    def _appended(self, memgov_id: str, sent: list[dict[str, str]], appended: list[dict[str, Any]]) -> None:
        """The batch just appended joins what was read when it follows the last event read (or starts the
        branch); else another instance appended in between, and the next read fetches both."""
        parent = appended[0]["parent_id"]
        with self._lock:
            known = self._read_so_far
            if parent is None:
                self._read_so_far = _Read(memgov_id, _texts(sent), appended[-1]["id"], earlier=None)
            elif known is not None and known.memgov_id == memgov_id and known.last == parent:
                self._read_so_far = replace(known, items=known.items + _texts(sent), last=appended[-1]["id"])

    async def pop_item(self) -> TResponseInputItem | None:
        """Moves the session's leaf back past the latest item and returns it; nothing is erased in memgov
        (the event stays in the history, off the branch), as ``POST /sessions/{id}/pop`` does."""

        def pop(memgov_id: str) -> Any:
            while True:
                try:
                    popped = self._client.sessions.pop(memgov_id)
                except Conflict:  # nothing (left) of this session's own to pop
                    return None
                self._popped(memgov_id, popped["event"])
                item = _item(popped["event"])
                if item is not None:
                    return item

        return await asyncio.to_thread(self._with_session, pop, create=False)

    def _popped(self, memgov_id: str, event: dict[str, Any]) -> None:
        """The leaf moved back to the popped event's parent: when that event is the last one read, what was
        read ends at its parent now (so the next read isn't refused and the branch read again). Otherwise
        what was read is left as it is; the next read finds out whether it is still on the branch."""
        with self._lock:
            known = self._read_so_far
            if known is None or known.memgov_id != memgov_id or known.last != event["id"]:
                return
            parent = event["parent_id"]
            if parent is None:  # the root: the branch is empty
                self._read_so_far = None
            elif known.earlier == event["id"]:  # an earlier pop left nothing read: the branch goes on above it
                self._read_so_far = replace(known, last=parent, earlier=parent)
            else:
                popped_item = _item_text(event["kind"], event["content"]) is not None
                items = known.items[:-1] if popped_item else known.items
                self._read_so_far = replace(known, items=items, last=parent)

    async def clear_session(self) -> None:
        def clear(memgov_id: str) -> None:
            self._client.sessions.delete(memgov_id)
            with self._lock:
                self._memgov_id = None
                self._read_so_far = None

        await asyncio.to_thread(self._with_session, clear, create=False)

    def close(self) -> None:
        if self._owns_client:
            self._client.close()


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
