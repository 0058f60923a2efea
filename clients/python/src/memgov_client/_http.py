"""One request, its retries and its errors, for the sync and the async client alike."""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from memgov_client.errors import RateLimited, ServiceUnavailable, TransportError, error_for

RETRY_STATUSES = frozenset({429, 503})


@dataclass(frozen=True)
class Call:
    """A request, described once and sent by either transport."""

    method: str
    path: str
    json: Any = None
    params: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class RetryPolicy:
    """Retries on 429 and 503 (the request was not carried out), and on connection failures.

    The wait is ``Retry-After`` when memgov sends one (up to ``max_retry_after`` seconds), else an exponential
    backoff with jitter: ``backoff``, twice that, … up to ``max_backoff``.
    """

    max_retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_retry_after: float = 60.0
    jitter: float = field(default=0.1, repr=False)

    def wait(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        delay = min(self.backoff * (2**attempt), self.max_backoff)
        return delay * (1 + random.uniform(-self.jitter, self.jitter))  # noqa: S311 - spreading retries, not secrecy


def retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time()) if when is not None else None


def _body(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {"detail": response.text[:500]}
    return body if isinstance(body, dict) else {"detail": body}


def checked(response: httpx.Response) -> Any:
    """The decoded answer, or the error memgov reported, as an exception."""
    if response.status_code >= 400:
        raise error_for(response.status_code, _body(response), retry_after=retry_after(response))
    if response.status_code == 204 or not response.content:
        return None
    return response.json()


def headers(api_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}", "Accept": "application/json", "User-Agent": "memgov-client/0.1"}


def _request_kwargs(call: Call) -> dict[str, Any]:
    return {"json": call.json, "params": call.params}


class SyncTransport:
    def __init__(self, http: httpx.Client, retry: RetryPolicy) -> None:
        self.http, self.retry = http, retry

    def send(self, call: Call) -> Any:
        attempt = 0
        while True:
            try:
                response = self.http.request(call.method, call.path, **_request_kwargs(call))
            except httpx.TransportError as exc:
                if not _retry_transport(exc) or attempt >= self.retry.max_retries:
                    raise TransportError(str(exc)) from exc
                time.sleep(self.retry.wait(attempt, None))
                attempt += 1
                continue
            try:
                return checked(response)
            except (RateLimited, ServiceUnavailable) as exc:
                if attempt >= self.retry.max_retries:
                    raise
                time.sleep(self.retry.wait(attempt, exc.retry_after))
                attempt += 1

    def lines(self, call: Call) -> Iterator[str]:
        with self.http.stream(call.method, call.path, params=call.params) as response:
            if response.status_code >= 400:
                response.read()
                checked(response)
            yield from response.iter_lines()


class AsyncTransport:
    def __init__(self, http: httpx.AsyncClient, retry: RetryPolicy) -> None:
        self.http, self.retry = http, retry

    async def send(self, call: Call) -> Any:
        import anyio

        attempt = 0
        while True:
            try:
                response = await self.http.request(call.method, call.path, **_request_kwargs(call))
            except httpx.TransportError as exc:
                if not _retry_transport(exc) or attempt >= self.retry.max_retries:
                    raise TransportError(str(exc)) from exc
                await anyio.sleep(self.retry.wait(attempt, None))
                attempt += 1
                continue
            try:
                return checked(response)
            except (RateLimited, ServiceUnavailable) as exc:
                if attempt >= self.retry.max_retries:
                    raise
                await anyio.sleep(self.retry.wait(attempt, exc.retry_after))
                attempt += 1

    async def lines(self, call: Call) -> AsyncIterator[str]:
        async with self.http.stream(call.method, call.path, params=call.params) as response:
            if response.status_code >= 400:
                await response.aread()
                checked(response)
            async for line in response.aiter_lines():
                yield line


def _retry_transport(exc: httpx.TransportError) -> bool:
    # Only when the request never reached memgov: a timeout mid-request may have carried out a write.
    return isinstance(exc, httpx.ConnectError)
