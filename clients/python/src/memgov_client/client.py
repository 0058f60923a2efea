"""``Client``: memgov's REST API, synchronous. One attribute per endpoint family (``memories``,
``confirmations``, ``commands``, ``tasks``, ``sessions``, ``task_states``, ``handoffs``, ``audit``); each
method is one endpoint of docs/api.md or docs/sessions.md."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, cast
from uuid import UUID

import httpx

from memgov_client import _calls
from memgov_client._http import RetryPolicy, SyncTransport, headers
from memgov_client.sessions import Handoffs, Sessions, TaskStates
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

DEFAULT_TIMEOUT = 30.0


class Memories:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def write(
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
        return cast(Decision, self._t.send(call))

    def context(
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
        return cast(ContextResult, self._t.send(call))

    def used(self, citation_ids: Iterable[str]) -> Used:
        """After answering: which context items (their ``citation_id``) the answer used; each counts once."""
        return cast(Used, self._t.send(_calls.memory_used(citation_ids)))

    def list(self, *, user_id: str, limit: int | None = None, offset: int | None = None) -> Page[Memory]:
        """One page of a subject's active memories."""
        return cast(Page[Memory], self._t.send(_calls.memory_list(user_id=user_id, limit=limit, offset=offset)))

    def iter(self, *, user_id: str, page_size: int = 100) -> Iterator[Memory]:
        """Every active memory of a subject, fetching ``page_size`` at a time."""
        offset = 0
        while True:
            page = self.list(user_id=user_id, limit=page_size, offset=offset)
            yield from page["results"]
            offset += len(page["results"])
            if not page["results"] or not page["next"]:
                return

    def get(self, memory_id: str | UUID) -> Memory:
        return cast(Memory, self._t.send(_calls.memory_get(memory_id)))

    def update(
        self, memory_id: str | UUID, *, content: str | None = None, type: str | None = None, reason: str | None = None
    ) -> Memory:
        """A new version (PATCH); held to the pipeline's content rules (``BadRequest`` ``edit_refused``)."""
        return cast(Memory, self._t.send(_calls.memory_update(memory_id, content=content, type=type, reason=reason)))

    def delete(self, memory_id: str | UUID) -> None:
        self._t.send(_calls.memory_delete(memory_id))

    def pause(self, memory_id: str | UUID) -> Memory:
        return cast(Memory, self._t.send(_calls.memory_status(memory_id, "pause")))

    def resume(self, memory_id: str | UUID) -> Memory:
        return cast(Memory, self._t.send(_calls.memory_status(memory_id, "resume")))

    def rollback(self, memory_id: str | UUID, *, version: int) -> Memory:
        return cast(Memory, self._t.send(_calls.memory_rollback(memory_id, version=version)))


class Confirmations:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def accept(self, confirmation_id: str | UUID, *, instruction_message_id: str | None = None) -> Confirmation:
        """An agent settles a person's confirmation only on their word: ``instruction_message_id`` names the
        message in which they said yes (else ``BadRequest`` ``consent_required``)."""
        call = _calls.confirmation_settle(confirmation_id, "accept", instruction_message_id=instruction_message_id)
        return cast(Confirmation, self._t.send(call))

    def decline(self, confirmation_id: str | UUID) -> Confirmation:
        return cast(Confirmation, self._t.send(_calls.confirmation_settle(confirmation_id, "decline")))


class Commands:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def run(
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
        return cast(CommandResult, self._t.send(call))


class Tasks:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def complete(self, task_id: str) -> TaskCompleted:
        """The task is finished: its task-scope memories are archived."""
        return cast(TaskCompleted, self._t.send(_calls.task_complete(task_id)))


class Audit:
    def __init__(self, transport: SyncTransport) -> None:
        self._t = transport

    def export(
        self, *, format: str = "jsonl", start: datetime | str | None = None, end: datetime | str | None = None
    ) -> Iterator[str]:
        """The tenant's audit events, line by line as they stream (JSONL: the last line is the manifest)."""
        return self._t.lines(_calls.audit_export(format=format, start=start, end=end))


class Client:
    """memgov's REST API for one agent key (``Client(base_url, api_key)``); use it as a context manager or
    call ``close()``. ``retry`` sets how 429 and 503 are retried; ``http`` lends an ``httpx.Client``."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        http: httpx.Client | None = None,
    ) -> None:
        self._owns_http = http is None
        self._http = http or httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout)
        self._http.headers.update(headers(api_key))
        transport = SyncTransport(self._http, retry or RetryPolicy())
        self.memories = Memories(transport)
        self.confirmations = Confirmations(transport)
        self.commands = Commands(transport)
        self.tasks = Tasks(transport)
        self.task_states = TaskStates(transport)
        self.sessions = Sessions(transport)
        self.handoffs = Handoffs(transport)
        self.audit = Audit(transport)

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
