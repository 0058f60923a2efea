"""``AsyncClient``: the same API as ``Client`` (client.py), for asyncio and trio code: every method is awaited,
``memories.iter`` and ``audit.export`` are async iterators."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Mapping
from datetime import datetime
from typing import Any, cast
from uuid import UUID

import httpx

from memgov_client import _calls
from memgov_client._http import AsyncTransport, RetryPolicy, headers
from memgov_client.client import DEFAULT_TIMEOUT
from memgov_client.sessions import AsyncHandoffs, AsyncSessions, AsyncTaskStates
from memgov_client.types import (
    CommandResult,
    Confirmation,
    ContextResult,
    Decision,
    Memory,
    Page,
    ReadScope,
    Source,
    TaskCompleted,
    Used,
    WriteScope,
)


class AsyncMemories:
    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def write(
        self,
        *,
        content: str,
        scope: WriteScope | Mapping[str, Any],
        source: Source | Mapping[str, Any],
        type: str | None = None,
        confidence: float | None = None,
        sensitivity: str | None = None,
        expires_at: datetime | str | None = None,
        on_behalf_of: str | None = None,
        session_id: str | None = None,
    ) -> Decision:
        """A candidate memory; the answer is the pipeline's decision (a rejection is an answer, not an error)."""
        call = _calls.memory_write(
            content=content,
            scope=scope,
            source=source,
            type=type,
            confidence=confidence,
            sensitivity=sensitivity,
            expires_at=expires_at,
            on_behalf_of=on_behalf_of,
            session_id=session_id,
        )
        return cast(Decision, await self._t.send(call))

    async def context(
        self,
        *,
        scope: ReadScope | Mapping[str, Any],
        query: str | None = None,
        types: Iterable[str] | None = None,
        top_k: int | None = None,
        token_budget: int | None = None,
        instruction: str | None = None,
        language: str | None = None,
    ) -> ContextResult:
        """What to inject into the next prompt: scoped, ranked, within ``token_budget``, rendered."""
        call = _calls.memory_context(
            scope=scope,
            query=query,
            types=types,
            top_k=top_k,
            token_budget=token_budget,
            instruction=instruction,
            language=language,
        )
        return cast(ContextResult, await self._t.send(call))

    async def used(self, citation_ids: Iterable[str]) -> Used:
        """After answering: which context items (their ``citation_id``) the answer used; each counts once."""
        return cast(Used, await self._t.send(_calls.memory_used(citation_ids)))

    async def list(self, *, user_id: str, limit: int | None = None, offset: int | None = None) -> Page[Memory]:
        """One page of a subject's active memories."""
        return cast(Page[Memory], await self._t.send(_calls.memory_list(user_id=user_id, limit=limit, offset=offset)))

    async def iter(self, *, user_id: str, page_size: int = 100) -> AsyncIterator[Memory]:
        """Every active memory of a subject, fetching ``page_size`` at a time."""
        offset = 0
        while True:
            page = await self.list(user_id=user_id, limit=page_size, offset=offset)
            for memory in page["results"]:
                yield memory
            offset += len(page["results"])
            if not page["results"] or not page["next"]:
                return

    async def get(self, memory_id: str | UUID) -> Memory:
        return cast(Memory, await self._t.send(_calls.memory_get(memory_id)))

    async def update(
        self, memory_id: str | UUID, *, content: str | None = None, type: str | None = None, reason: str | None = None
    ) -> Memory:
        """A new version (PATCH); held to the pipeline's content rules (``BadRequest`` ``edit_refused``)."""
        return cast(
            Memory, await self._t.send(_calls.memory_update(memory_id, content=content, type=type, reason=reason))
        )

    async def delete(self, memory_id: str | UUID) -> None:
        await self._t.send(_calls.memory_delete(memory_id))

    async def pause(self, memory_id: str | UUID) -> Memory:
        return cast(Memory, await self._t.send(_calls.memory_status(memory_id, "pause")))

    async def resume(self, memory_id: str | UUID) -> Memory:
        return cast(Memory, await self._t.send(_calls.memory_status(memory_id, "resume")))

    async def rollback(self, memory_id: str | UUID, *, version: int) -> Memory:
        return cast(Memory, await self._t.send(_calls.memory_rollback(memory_id, version=version)))


class AsyncConfirmations:
    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def accept(self, confirmation_id: str | UUID, *, instruction_message_id: str | None = None) -> Confirmation:
        """See ``Client.confirmations.accept``."""
        call = _calls.confirmation_settle(confirmation_id, "accept", instruction_message_id=instruction_message_id)
        return cast(Confirmation, await self._t.send(call))

    async def decline(self, confirmation_id: str | UUID) -> Confirmation:
        return cast(Confirmation, await self._t.send(_calls.confirmation_settle(confirmation_id, "decline")))


class AsyncCommands:
    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def run(
        self,
        *,
        text: str,
        user_id: str | None = None,
        session_id: str | None = None,
        confirm: bool = False,
        memory_ids: Iterable[str | UUID] | None = None,
    ) -> CommandResult:
        """A natural-language memory command; a destructive plan runs only with ``confirm=True``."""
        call = _calls.command_run(
            text=text, user_id=user_id, session_id=session_id, confirm=confirm, memory_ids=memory_ids
        )
        return cast(CommandResult, await self._t.send(call))


class AsyncTasks:
    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    async def complete(self, task_id: str) -> TaskCompleted:
        """The task is finished: its task-scope memories are archived."""
        return cast(TaskCompleted, await self._t.send(_calls.task_complete(task_id)))


class AsyncAudit:
    def __init__(self, transport: AsyncTransport) -> None:
        self._t = transport

    def export(
        self, *, format: str = "jsonl", start: datetime | str | None = None, end: datetime | str | None = None
    ) -> AsyncIterator[str]:
        """The tenant's audit events, line by line as they stream (JSONL: the last line is the manifest)."""
        return self._t.lines(_calls.audit_export(format=format, start=start, end=end))


class AsyncClient:
    """``AsyncClient(base_url, api_key)``; ``async with`` it or ``await aclose()``."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self._owns_http = http is None
        self._http = http or httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=timeout)
        self._http.headers.update(headers(api_key))
        transport = AsyncTransport(self._http, retry or RetryPolicy())
        self.memories = AsyncMemories(transport)
        self.confirmations = AsyncConfirmations(transport)
        self.commands = AsyncCommands(transport)
        self.tasks = AsyncTasks(transport)
        self.task_states = AsyncTaskStates(transport)
        self.sessions = AsyncSessions(transport)
        self.handoffs = AsyncHandoffs(transport)
        self.audit = AsyncAudit(transport)

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
