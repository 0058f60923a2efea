"""The optional LLM summarizer, against a local fake chat-completions server: what it is sent is screened
(no restricted text leaves), what it answers is screened again, and an outage is a 503 that loses nothing."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from session_helpers import append, fresh

from conversations.models import Event
from conversations.services.compaction import session_compact
from conversations.summarize import SummarizerUnavailable

SECRET = "sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3"


@pytest.fixture(autouse=True, scope="module")
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


class FakeModel:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.answer: dict | None = None
        self.status = 200


@pytest.fixture
def fake_model(settings) -> Iterator[FakeModel]:
    model = FakeModel()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            model.requests.append({"body": body, "auth": self.headers.get("Authorization")})
            payload = {"choices": [{"message": {"content": json.dumps(model.answer)}}]}
            data = json.dumps(payload).encode()
            self.send_response(model.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.MEMGOV_SUMMARIZER_URL = f"http://127.0.0.1:{server.server_port}/v1/chat/completions"
    settings.MEMGOV_SUMMARIZER_MODEL = "fake-1"
    settings.MEMGOV_SUMMARIZER_API_KEY = "test-key"
    try:
        yield model
    finally:
        server.shutdown()
        server.server_close()


def test_the_llm_summary_is_screened_both_ways(world, make_session, fake_model):
    session = make_session()
    append(session, "Help me plan the Lisbon offsite for May.", f"My key is {SECRET} by the way.")
    fake_model.answer = {
        "goal": ["Plan the Lisbon offsite (#1)"],
        "facts": ["The offsite is in May (#1)", f"The user's key is {SECRET} (#2)"],
        "done": [], "open": ["Book the venue"], "tools": [], "decisions": [], "uncertain": [],
    }  # fmt: skip
    event, covered = session_compact(tenant_id=world.demo.pk, session_id=session.pk, actor="test")
    sent = json.dumps(fake_model.requests[0]["body"])
    assert SECRET not in sent and "Lisbon offsite" in sent  # restricted text never leaves
    assert fake_model.requests[0]["body"]["response_format"]["json_schema"]["strict"] is True
    assert fake_model.requests[0]["auth"] == "Bearer test-key"
    assert event.meta["summarizer"] == "llm" and len(covered) == 2
    assert "Goal: Plan the Lisbon offsite (#1)" in event.content and "Book the venue" in event.content
    assert SECRET not in event.content  # the model's answer is screened too
    assert event.meta["dropped"]["restricted"] == 2  # the sentence it was not sent, the line it made up


@pytest.mark.parametrize("failure", ["status", "nonsense"])
def test_an_outage_is_a_503_with_retry_after_and_loses_nothing(world, make_session, fake_model, failure):
    session = make_session()
    append(session, "Help me plan the Lisbon offsite for May.")
    if failure == "status":
        fake_model.status = 500
    else:
        fake_model.answer = ["not", "an", "object"]  # type: ignore[assignment]
    with pytest.raises(SummarizerUnavailable):
        session_compact(tenant_id=world.demo.pk, session_id=session.pk, actor="test")
    assert fresh(session).state == "active"
    assert not Event.objects.filter(kind="compaction").exists()
    response = world.agent_client(world.demo_key).post(f"/api/v1/sessions/{session.pk}/compact", {}, format="json")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert SECRET not in response.content.decode()
    assert world.agent_client(world.acme_key).post(f"/api/v1/sessions/{session.pk}/compact").status_code == 404
