"""After phase 1: phase 2 under its lock (§10.2's example from two conversations gives one merge proposal),
deletion following provenance, and the optional LLM extractor against a local fake endpoint."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone
from session_helpers import append

from conversations.extraction.run import extract_run
from conversations.models import ExtractionClaim
from conversations.services.deletion import session_delete
from conversations.services.erasure import subject_erase
from conversations.services.events import NewEvent
from conversations.services.sessions import SessionChange, session_update
from governance.models import PolicyVersion
from governance.services.policy import PolicyError, policy_version_create
from governance.vocabulary import MemoryType, SourceType, Status
from memories.lifecycle.consolidate import consolidate_run
from memories.lifecycle.locks import job_lock_take
from memories.models import Memory, MergeProposal

# §10.2: 中文 + 分步骤, then 中文、分步骤、带检查清单 — one preference.
SPEC_EXAMPLE = ("记住：我喜欢中文回答。", "记住：我喜欢分步骤回答。", "记住：我喜欢中文、分步骤、带检查清单的回答。")
SECRET = "ghp_R8sTuVwXyZa1B2c3D4e5F6g7H8i9J0kLmNoP"


@pytest.fixture(autouse=True, scope="module")
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def ended_session(make_session, *texts: str, **kwargs):
    session = make_session(**kwargs)
    append(session, *(NewEvent(kind="user_message", content=t) for t in texts))
    session_update(tenant_id=session.tenant_id, session_id=session.pk, change=SessionChange(state="ended"), actor="t")
    return session


def live(user_id: str = "alice") -> list[Memory]:
    return list(Memory.objects.filter(user_id=user_id).exclude(status=Status.DELETED))


def test_the_spec_merge_example_from_three_conversations_gives_one_proposal(world, make_session):
    for text in SPEC_EXAMPLE:
        ended_session(make_session, text)
    extract_run(tenant_id=world.demo.pk)
    assert len(live()) == 3
    result = consolidate_run(tenant_id=world.demo.pk)
    assert result["proposed"] == 1
    (proposal,) = MergeProposal.objects.all()
    assert proposal.memory.status == Status.PENDING_CONFIRMATION and proposal.memory.confirmation.confirm_by == "user"
    # Nothing changed since: the next pass is the watermark's skip.
    again = consolidate_run(tenant_id=world.demo.pk)
    assert again["proposed"] == 0 and again["skipped_not_dirty"] >= 1


def test_one_consolidation_at_a_time(world, make_session):
    for text in SPEC_EXAMPLE:
        ended_session(make_session, text)
    extract_run(tenant_id=world.demo.pk)
    now = timezone.now()
    assert job_lock_take("consolidate", now=now, holder="another-run")
    assert consolidate_run(tenant_id=world.demo.pk, now=now)["skipped_locked"] == 1
    assert not MergeProposal.objects.exists()
    # A holder that died frees the lock when its lease runs out.
    later = now + timedelta(minutes=16)
    assert consolidate_run(tenant_id=world.demo.pk, now=later)["proposed"] == 1


def test_deleting_a_session_can_forget_what_was_learned_only_from_it(world, make_session):
    only_here = ended_session(make_session, "Remember: never push directly to main!")
    said_twice = ended_session(make_session, "Remember: I'm on the payments team.")
    extract_run(tenant_id=world.demo.pk)
    again = ended_session(make_session, "Remember: I'm on the payments team.")
    extract_run(tenant_id=world.demo.pk)
    assert len(live()) == 2  # the second "payments" was the same memory (deduplicated), one more source
    kept = session_delete(tenant_id=world.demo.pk, session_id=said_twice.pk, actor="t", forget_extracted=True)
    assert kept.memories_deleted == 0  # also learned in another session: it stays
    plain = session_delete(tenant_id=world.demo.pk, session_id=again.pk, actor="t")
    assert plain.memories_deleted == 0 and len(live()) == 2  # not asked: memories stay
    gone = session_delete(tenant_id=world.demo.pk, session_id=only_here.pk, actor="t", forget_extracted=True)
    assert gone.memories_deleted == 1
    assert [m.type for m in live()] == [MemoryType.USER_PROFILE]


def test_erasure_removes_extracted_memories_and_their_claims(world, make_session):
    ended_session(make_session, "Remember: never push directly to main!")
    extract_run(tenant_id=world.demo.pk)
    assert live()
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="t")
    assert live() == [] and not ExtractionClaim.objects.exists()


class FakeModel:
    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.answer: object = {"memories": []}
        self.status = 200


@pytest.fixture
def fake_model(settings) -> Iterator[FakeModel]:
    model = FakeModel()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            model.requests.append(body)
            data = json.dumps({"choices": [{"message": {"content": json.dumps(model.answer)}}]}).encode()
            self.send_response(model.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.MEMGOV_EXTRACTOR_URL = f"http://127.0.0.1:{server.server_port}/v1/chat/completions"
    try:
        yield model
    finally:
        server.shutdown()


def test_the_llm_extractor_is_sent_sanitized_turns_and_its_answer_goes_through_the_pipeline(
    world, make_session, fake_model
):
    session = make_session()
    append(
        session,
        NewEvent(kind="developer_message", content="Remember: the admin password is hunter2-Zx9!"),
        NewEvent(kind="user_message", content=f"My token is {SECRET}. I usually want code before the explanation."),
    )
    session_update(tenant_id=world.demo.pk, session_id=session.pk, change=SessionChange(state="ended"), actor="t")
    fake_model.answer = {
        "memories": [
            {"content": "Prefers code before the explanation.", "type": "user_preference",
             "source_type": "user_statement", "confidence": 0.8, "project": False, "seqs": [2]},
            {"content": f"Token {SECRET}", "type": "user_profile", "source_type": "explicit_user_request",
             "confidence": 1, "project": False, "seqs": [2]},
            {"content": "Made up", "type": "task_state", "source_type": "tool_result", "confidence": 1,
             "project": False, "seqs": [2]},
        ]
    }  # fmt: skip
    extract_run(tenant_id=world.demo.pk)
    (request,) = fake_model.requests
    sent = json.dumps(request, ensure_ascii=False)
    assert SECRET not in sent and "hunter2" not in sent and "[REDACTED]" in sent
    assert request["response_format"]["json_schema"]["strict"] is True
    (memory,) = live()
    assert memory.content == "Prefers code before the explanation."
    assert memory.source_type == SourceType.USER_STATEMENT and memory.status == Status.PENDING_CONFIRMATION


def test_an_llm_outage_leaves_the_claim_for_the_next_run(world, make_session, fake_model):
    ended_session(make_session, "Remember: never push directly to main!")
    fake_model.status = 503
    result = extract_run(tenant_id=world.demo.pk)
    assert result["extractor_unavailable"] == 1 and live() == []
    assert ExtractionClaim.objects.get().state == ExtractionClaim.State.PENDING
    fake_model.status = 200
    fake_model.answer = {
        "memories": [
            {"content": "Never push directly to main.", "type": "constraint", "source_type": "explicit_user_request",
             "confidence": 1, "project": False, "seqs": [1]}
        ]
    }  # fmt: skip
    assert extract_run(tenant_id=world.demo.pk)["extracted"] == 1
    assert [m.type for m in live()] == [MemoryType.CONSTRAINT]


def _choose_extractor(tenant, choice: str) -> None:
    document = copy.deepcopy(PolicyVersion.objects.filter(tenant=tenant).order_by("-version").first().document)
    policy_version_create(tenant=tenant, document={**document, "extractor": choice}, reason="t", actor="user:carol")


def test_a_tenant_on_rules_never_sends_a_conversation_to_the_configured_model(world, make_session, fake_model):
    _choose_extractor(world.demo, "rules")
    ended_session(make_session, "Remember: never push directly to main!")
    ended_session(make_session, "Remember: deploys happen on Tuesdays.", user_id="erin", tenant=world.acme)
    assert extract_run(tenant_id=world.demo.pk)["extracted"] == 1
    assert fake_model.requests == []  # the rules did it, inside the deployment
    assert [m.type for m in live()] == [MemoryType.CONSTRAINT]
    extract_run(tenant_id=world.acme.pk)  # acme keeps the default: the configured model
    (request,) = fake_model.requests
    assert "Tuesdays" in json.dumps(request) and "push directly" not in json.dumps(request)


def test_a_tenant_that_chose_the_model_waits_for_it_when_it_is_gone(world, make_session, fake_model, settings):
    _choose_extractor(world.demo, "llm")
    ended_session(make_session, "Remember: never push directly to main!")
    settings.MEMGOV_EXTRACTOR_URL = ""  # the deployment drops its endpoint: no silent switch to the rules
    assert extract_run(tenant_id=world.demo.pk)["extractor_unavailable"] == 1
    assert live() == [] and ExtractionClaim.objects.get().state == ExtractionClaim.State.PENDING


def test_the_policy_refuses_an_unknown_extractor_and_the_model_where_none_is_set_up(world, settings):
    settings.MEMGOV_EXTRACTOR_URL = ""
    for choice, words in (("gpt", "extractor must be one of"), ("llm", "needs an LLM endpoint")):
        with pytest.raises(PolicyError) as refused:
            _choose_extractor(world.demo, choice)
        assert refused.value.field == "extractor" and words in str(refused.value)
    assert PolicyVersion.objects.filter(tenant=world.demo).count() == 1
