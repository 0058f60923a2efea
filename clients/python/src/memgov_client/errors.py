"""What can go wrong, as exceptions that carry memgov's own codes.

Every API error is JSON with an ``error`` code; ``reason_code`` is that code (or, for a refused edit, the
write pipeline's reason), ``field`` the first field it names (``scope.level``), ``detail`` the message.
A write the pipeline rejects is *not* an error: ``memories.write`` returns the decision.
"""

from __future__ import annotations

from typing import Any


class MemgovError(Exception):
    """Anything this package raises."""


class TransportError(MemgovError):
    """The request did not get an answer (connection refused, timed out)."""


class APIError(MemgovError):
    """memgov answered with an error status."""

    def __init__(self, status_code: int, body: dict[str, Any], *, retry_after: float | None = None) -> None:
        self.status_code = status_code
        self.body = body
        self.reason_code: str = str(body.get("reason_code") or body.get("error") or f"http_{status_code}")
        self.field, self.detail = _first_field(body)
        self.retry_after = retry_after
        where = f" ({self.field})" if self.field else ""
        super().__init__(f"{status_code} {self.reason_code}{where}: {self.detail}".rstrip(": "))


class BadRequest(APIError):
    """400: the request names what to fix (``field``); nothing was stored or changed."""


class AuthenticationError(APIError):
    """401: no key, or an unknown or revoked one."""


class PermissionDenied(APIError):
    """403: the key lacks the scope this call needs (``reason_code`` ``insufficient_scope``), or the person
    switched this agent off (``subject_blocked_agent``)."""


class NotFound(APIError):
    """404: no such resource — or not this key's to see (memgov answers both alike)."""


class Conflict(APIError):
    """409: the resource is not in a state that allows this (e.g. a confirmation already settled)."""


class RateLimited(APIError):
    """429: retried with backoff (``Retry-After`` honoured) until the client's retries ran out."""


class ServiceUnavailable(APIError):
    """503: a dependency is down; retried like 429."""


class ServerError(APIError):
    """Any other 5xx."""


class MemoryRejected(MemgovError):
    """The write pipeline rejected a memory the caller needed stored (LangGraph's ``put``)."""

    def __init__(self, decision: dict[str, Any]) -> None:
        self.decision = decision
        self.reason_code: str = str(decision.get("reason_code", ""))
        self.reason: str = str(decision.get("reason", ""))
        self.field: str | None = None
        super().__init__(f"rejected: {self.reason_code}: {self.reason}")


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    429: RateLimited,
    503: ServiceUnavailable,
}


def error_for(status_code: int, body: dict[str, Any], *, retry_after: float | None = None) -> APIError:
    cls = _BY_STATUS.get(status_code, ServerError if status_code >= 500 else APIError)
    return cls(status_code, body, retry_after=retry_after)


def _first_field(body: dict[str, Any]) -> tuple[str | None, str]:
    """The first field an error names and its message, from either of memgov's two shapes."""
    if isinstance(body.get("field"), str):
        return body["field"], str(body.get("detail", ""))
    fields = body.get("fields")
    path: list[str] = []
    while isinstance(fields, dict) and fields:
        name, fields = next(iter(fields.items()))
        path.append(str(name))
    if path:
        message = fields[0] if isinstance(fields, list) and fields else fields
        return ".".join(path), str(message if message is not None else "")
    return None, str(body.get("detail", ""))
