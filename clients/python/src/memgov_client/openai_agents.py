"""``MemgovSession``: the OpenAI Agents SDK's ``Session`` protocol on a memgov session, so an agent's history
is encrypted, kept for the tenant's retention, deletable by the person and a source for extraction.

Each item is one event of the memgov session, its content the item's JSON (so ``get_items`` gives back
exactly what ``add_items`` took), its kind what the item is: a user message ``user_message``, an assistant
message ``assistant_message``, a tool call ``tool_call`` and its output ``tool_result``; system and
developer messages, reasoning and anything else are ``label`` events, which memgov never projects into
a model's context nor extracts memories from. A plain-text message appended by another client reads back
as ``{"role": …, "content": text}``.

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
from typing import TYPE_CHECKING, Any

from agents.memory.session_settings import SessionSettings, coerce_session_settings, resolve_session_limit

from memgov_client.client import Client
from memgov_client.errors import Conflict, NotFound

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


def _item(event: dict[str, Any]) -> dict[str, Any] | None:
    """The SDK item an event holds, or None for memgov's own events (state changes, summaries, handoffs)."""
    if event["kind"] not in ITEM_KINDS or event.get("content") is None:
        return None
    try:
        item = json.loads(event["content"])
    except ValueError:
        item = None
    if isinstance(item, dict):
        return item
    if event["kind"] in ("user_message", "assistant_message"):
        return {"role": event["kind"].split("_")[0], "content": event["content"]}
    return None


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
        self._lock = threading.Lock()  # one resolution (and creation) at a time per instance

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
        items: list[Any] = []
        leaf: str | None = None
        while True:
            page_size = PAGE if wanted is None else min(PAGE, max(wanted - len(items), 1))
            branch = self._client.sessions.events(memgov_id, leaf=leaf, limit=page_size)
            page = [item for item in (_item(e) for e in branch["events"]) if item is not None]
            items[:0] = page
            if not branch["has_more"] or (wanted is not None and len(items) >= wanted):
                break
            leaf = branch["next_leaf"]
        return items if wanted is None else items[-wanted:]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        if not items:
            return
        events = [
            {"kind": item_kind(dict(item)), "content": json.dumps(item, ensure_ascii=False, separators=(",", ":"))}
            for item in items
        ]

        def append(memgov_id: str) -> None:
            for start in range(0, len(events), 100):  # the API's batch limit; each batch is one transaction
                self._client.sessions.append(memgov_id, events[start : start + 100])

        await asyncio.to_thread(self._with_session, append, create=True)

    async def pop_item(self) -> TResponseInputItem | None:
        """Moves the session's leaf back past the latest item and returns it; nothing is erased in memgov
        (the event stays in the history, off the branch), as ``POST /sessions/{id}/pop`` does."""

        def pop(memgov_id: str) -> Any:
            while True:
                try:
                    popped = self._client.sessions.pop(memgov_id)
                except Conflict:  # nothing (left) of this session's own to pop
                    return None
                item = _item(popped["event"])
                if item is not None:
                    return item

        return await asyncio.to_thread(self._with_session, pop, create=False)

    async def clear_session(self) -> None:
        def clear(memgov_id: str) -> None:
            self._client.sessions.delete(memgov_id)
            with self._lock:
                self._memgov_id = None

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
