"""AsyncClient against the live server, and retries against a local HTTP server that answers 503/429 first."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from async_run import run as run_async
from memgov_client import AsyncClient, Client, NotFound, RetryPolicy, ServiceUnavailable
from memgov_client._http import retry_after

ALICE = {"level": "user", "user_id": "alice"}


def test_the_async_client_writes_reads_pages_and_raises(world, live_server, make_memory):
    for n in range(4):
        make_memory(world.demo, f"Memory number {n}", user_id="alice")

    async def run() -> tuple[dict, dict, list[str]]:
        async with AsyncClient(live_server.url, world.demo_key) as memgov:
            decision = await memgov.memories.write(
                content="Remember that I prefer tables.", scope=ALICE, source={"source_type": "explicit_user_request"}
            )
            context = await memgov.memories.context(scope={"user_id": "alice"}, query="tables")
            walked = [m["content"] async for m in memgov.memories.iter(user_id="alice", page_size=2)]
            with pytest.raises(NotFound):
                await memgov.memories.get("0190a0a0-0000-7000-8000-000000000000")
            return decision, context, walked

    decision, context, walked = run_async(run)
    assert decision["decision"] == "save"
    assert decision["memory_id"] in [item["id"] for item in context["items"]]
    assert len(walked) == 5


class _Flaky(BaseHTTPRequestHandler):
    """Answers the first ``failures`` requests with ``status`` (and its Retry-After), then 200."""

    failures = 2
    status = 503
    retry_after = "0"
    seen: list[str]

    def do_POST(self) -> None:
        self.seen.append(self.headers.get("Authorization", ""))
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if len(self.seen) <= self.failures:
            body, code = {"error": "unavailable", "detail": "try later"}, self.status
        else:
            body, code = {"decision": "save", "reason_code": "explicit_request"}, 200
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if code != 200:
            self.send_header("Retry-After", self.retry_after)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def flaky() -> Iterator[tuple[str, type[_Flaky]]]:
    handler = type("Handler", (_Flaky,), {"seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", handler
    server.shutdown()
    server.server_close()


def _write(client: Client) -> dict:
    return client.memories.write(content="x", scope=ALICE, source={"source_type": "explicit_user_request"})


def test_503_is_retried_until_it_succeeds(flaky):
    url, handler = flaky
    with Client(url, "mg_key_k", retry=RetryPolicy(backoff=0.01)) as client:
        assert _write(client)["decision"] == "save"
    assert handler.seen == ["Bearer mg_key_k"] * 3


def test_429_honours_retry_after_up_to_the_policys_ceiling(flaky):
    url, handler = flaky
    handler.status, handler.retry_after = 429, "30"
    policy = RetryPolicy(max_retry_after=0.05)
    with Client(url, "mg_key_k", retry=policy) as client:
        assert _write(client)["decision"] == "save"
    assert len(handler.seen) == 3
    assert RetryPolicy().wait(0, 2.5) == 2.5 and policy.wait(0, 30.0) == 0.05


def test_when_retries_run_out_the_error_says_when_to_come_back(flaky):
    url, handler = flaky
    handler.failures, handler.retry_after = 10, "0"
    with (
        Client(url, "mg_key_k", retry=RetryPolicy(max_retries=2)) as client,
        pytest.raises(ServiceUnavailable) as caught,
    ):
        _write(client)
    assert len(handler.seen) == 3
    assert caught.value.reason_code == "unavailable" and caught.value.retry_after == 0.0


def test_the_async_client_retries_too(flaky):
    url, handler = flaky

    async def run() -> dict:
        async with AsyncClient(url, "mg_key_k", retry=RetryPolicy(backoff=0.01)) as client:
            return await client.memories.write(content="x", scope=ALICE, source={"source_type": "user_statement"})

    assert run_async(run)["decision"] == "save"
    assert len(handler.seen) == 3


def test_retry_after_reads_seconds_and_http_dates():
    import httpx

    assert retry_after(httpx.Response(503, headers={"Retry-After": "7"})) == 7.0
    dated = retry_after(httpx.Response(503, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}))
    assert dated == 0.0
    assert retry_after(httpx.Response(503)) is None
