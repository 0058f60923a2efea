"""The Sessions API (docs/sessions.md) and handoffs, sync (``Sessions``, ``TaskStates``, ``Handoffs``) and
async (``AsyncSessions``, …): each method is one endpoint, sending the calls ``_calls`` describes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from typing import Any, cast
from uuid import UUID

from memgov_client import _calls
from memgov_client._http import AsyncTransport, SyncTransport
from memgov_client.types import Appended, Branch, Handoff, Page, Popped, Projection, Session, SessionState, TaskState

Id = str | UUID


class Sessions:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(
        self,
        *,
        user_id: str,
        app: str,
        workspace: str | None = None,
        title: str | None = None,
        dont_save: bool | None = None,
    ) -> Session:
        call = _calls.session_create(user_id=user_id, app=app, workspace=workspace, title=title, dont_save=dont_save)
        return cast(Session, self._t.send(call))

    def list(
        self,
        *,
        user_id: str,
        app: str | None = None,
        workspace: str | None = None,
        last: bool = False,
        limit: int | None = None,
        offset: int | None = None,
    ) -> Page[Session]:
        """A subject's sessions, most recently active first; ``last=True``: only the latest (resume)."""
        call = _calls.session_list(user_id=user_id, app=app, workspace=workspace, last=last, limit=limit, offset=offset)
        return cast(Page[Session], self._t.send(call))

    def iter(self, *, user_id: str, app: str | None = None, page_size: int = 100) -> Iterator[Session]:
        offset = 0
        while True:
            page = self.list(user_id=user_id, app=app, limit=page_size, offset=offset)
            yield from page["results"]
            offset += len(page["results"])
            if not page["results"] or not page["next"]:
                return

    def get(self, session_id: Id) -> Session:
        return cast(Session, self._t.send(_calls.session_get(session_id)))

    def update(
        self, session_id: Id, *, state: str | None = None, title: str | None = None, dont_save: bool | None = None
    ) -> Session:
        """``state``: suspended, active or ended (a move the lifecycle forbids is ``Conflict``)."""
        call = _calls.session_update(session_id, state=state, title=title, dont_save=dont_save)
        return cast(Session, self._t.send(call))

    def delete(self, session_id: Id, *, forget_extracted: bool = False) -> None:
        self._t.send(_calls.session_delete(session_id, forget_extracted=forget_extracted))

    def append(self, session_id: Id, events: Iterable[Mapping[str, Any]]) -> Appended:
        """Events in order (``kind``, ``content``, optional ``state_delta``, ``parent_id``, ``task_id`` …)."""
        return cast(Appended, self._t.send(_calls.events_append(session_id, events)))

    def events(
        self, session_id: Id, *, leaf: Id | None = None, after: Id | None = None, limit: int | None = None
    ) -> Branch:
        """The branch ending at ``leaf`` (default: the session's leaf), its last ``limit`` events, oldest first;
        with ``after`` (an event of the branch), only the events after it — ``BadRequest`` with ``field``
        ``after`` when it is no longer on the branch."""
        call = _calls.events_branch(session_id, leaf=leaf, after=after, limit=limit)
        return cast(Branch, self._t.send(call))

    def pop(self, session_id: Id) -> Popped:
        return cast(Popped, self._t.send(_calls.session_pop(session_id)))

    def fork(self, session_id: Id, *, from_event_id: Id, title: str | None = None) -> Session:
        return cast(Session, self._t.send(_calls.session_fork(session_id, from_event_id=from_event_id, title=title)))

    def state(self, session_id: Id, *, at: Id | None = None) -> SessionState:
        return cast(SessionState, self._t.send(_calls.session_state(session_id, at=at)))

    def compact(self, session_id: Id) -> dict[str, Any]:
        return cast(dict[str, Any], self._t.send(_calls.session_compact(session_id)))

    def context(self, session_id: Id, *, token_budget: int) -> Projection:
        return cast(Projection, self._t.send(_calls.session_context(session_id, token_budget=token_budget)))


class TaskStates:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def get(self, task_id: str, *, session_id: Id, at: Id | None = None) -> TaskState:
        return cast(TaskState, self._t.send(_calls.task_state_get(task_id, session_id=session_id, at=at)))

    def put(self, task_id: str, *, session_id: Id, **values: Any) -> TaskState:
        """Replace the task's state (omitted fields take their defaults); appended to the session as an event."""
        return cast(TaskState, self._t.send(_calls.task_state_put(task_id, session_id=session_id, values=values)))


class Handoffs:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def create(self, *, session_id: Id, task_id: str, to_agent: str) -> Handoff:
        """Hand ``task_id`` to the agent key named ``to_agent``: its state and the memories allowed to cross."""
        call = _calls.handoff_create(session_id=session_id, task_id=task_id, to_agent=to_agent)
        return cast(Handoff, self._t.send(call))

    def get(self, handoff_id: Id) -> Handoff:
        """For the receiving key only (any other key: ``NotFound``)."""
        return cast(Handoff, self._t.send(_calls.handoff_get(handoff_id)))


class AsyncSessions:
    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def create(
        self,
        *,
        user_id: str,
        app: str,
        workspace: str | None = None,
        title: str | None = None,
        dont_save: bool | None = None,
    ) -> Session:
        call = _calls.session_create(user_id=user_id, app=app, workspace=workspace, title=title, dont_save=dont_save)
        return cast(Session, await self._t.send(call))

    async def list(
        self,
        *,
        user_id: str,
        app: str | None = None,
        workspace: str | None = None,
        last: bool = False,
        limit: int | None = None,
        offset: int | None = None,
    ) -> Page[Session]:
        call = _calls.session_list(user_id=user_id, app=app, workspace=workspace, last=last, limit=limit, offset=offset)
        return cast(Page[Session], await self._t.send(call))

    async def iter(self, *, user_id: str, app: str | None = None, page_size: int = 100) -> AsyncIterator[Session]:
        offset = 0
        while True:
            page = await self.list(user_id=user_id, app=app, limit=page_size, offset=offset)
            for session in page["results"]:
                yield session
            offset += len(page["results"])
            if not page["results"] or not page["next"]:
                return

    async def get(self, session_id: Id) -> Session:
        return cast(Session, await self._t.send(_calls.session_get(session_id)))

    async def update(
        self, session_id: Id, *, state: str | None = None, title: str | None = None, dont_save: bool | None = None
    ) -> Session:
        call = _calls.session_update(session_id, state=state, title=title, dont_save=dont_save)
        return cast(Session, await self._t.send(call))

    async def delete(self, session_id: Id, *, forget_extracted: bool = False) -> None:
        await self._t.send(_calls.session_delete(session_id, forget_extracted=forget_extracted))

    async def append(self, session_id: Id, events: Iterable[Mapping[str, Any]]) -> Appended:
        return cast(Appended, await self._t.send(_calls.events_append(session_id, events)))

    async def events(
        self, session_id: Id, *, leaf: Id | None = None, after: Id | None = None, limit: int | None = None
    ) -> Branch:
        call = _calls.events_branch(session_id, leaf=leaf, after=after, limit=limit)
        return cast(Branch, await self._t.send(call))

    async def pop(self, session_id: Id) -> Popped:
        return cast(Popped, await self._t.send(_calls.session_pop(session_id)))

    async def fork(self, session_id: Id, *, from_event_id: Id, title: str | None = None) -> Session:
        call = _calls.session_fork(session_id, from_event_id=from_event_id, title=title)
        return cast(Session, await self._t.send(call))

    async def state(self, session_id: Id, *, at: Id | None = None) -> SessionState:
        return cast(SessionState, await self._t.send(_calls.session_state(session_id, at=at)))

    async def compact(self, session_id: Id) -> dict[str, Any]:
        return cast(dict[str, Any], await self._t.send(_calls.session_compact(session_id)))

    async def context(self, session_id: Id, *, token_budget: int) -> Projection:
        return cast(Projection, await self._t.send(_calls.session_context(session_id, token_budget=token_budget)))


class AsyncTaskStates:
    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def get(self, task_id: str, *, session_id: Id, at: Id | None = None) -> TaskState:
        return cast(TaskState, await self._t.send(_calls.task_state_get(task_id, session_id=session_id, at=at)))

    async def put(self, task_id: str, *, session_id: Id, **values: Any) -> TaskState:
        call = _calls.task_state_put(task_id, session_id=session_id, values=values)
        return cast(TaskState, await self._t.send(call))


class AsyncHandoffs:
    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def create(self, *, session_id: Id, task_id: str, to_agent: str) -> Handoff:
        call = _calls.handoff_create(session_id=session_id, task_id=task_id, to_agent=to_agent)
        return cast(Handoff, await self._t.send(call))

    async def get(self, handoff_id: Id) -> Handoff:
        return cast(Handoff, await self._t.send(_calls.handoff_get(handoff_id)))
