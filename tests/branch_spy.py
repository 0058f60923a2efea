"""``spy_branch_reads(client)``: record every branch read a memgov client makes (the adapters' cursor tests)."""

from __future__ import annotations

from typing import Any

from memgov_client import BadRequest


def spy_branch_reads(client: Any) -> list[tuple[dict[str, Any], int | str]]:
    """(arguments, events answered or the refused field) of every ``sessions.events`` call from now on."""
    calls: list[tuple[dict[str, Any], int | str]] = []
    read = client.sessions.events

    def spied(session_id: str, **kwargs: Any) -> Any:
        try:
            branch = read(session_id, **kwargs)
        except BadRequest as error:
            calls.append((kwargs, f"400 {error.field}"))
            raise
        calls.append((kwargs, len(branch["events"])))
        return branch

    client.sessions.events = spied
    return calls
