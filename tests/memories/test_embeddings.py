"""Memory vectors: made with the content, sealed like it, gone with it; and the embedders that make them."""

from __future__ import annotations

import json
import logging
import threading
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
import time_machine
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from sqlite_bytes import sqlite_file_bytes

from evaluation.conversation_eval import load_conversations
from memories.access import Caller
from memories.embedding.embedders import (
    BuiltinEmbedder,
    EmbedderUnavailable,
    Model2VecEmbedder,
    OpenAIEmbedder,
    current_embedder,
)
from memories.embedding.vectors import pack_vector, unpack_vector
from memories.lifecycle.purge import purge_run, sqlite_truncate_wal
from memories.lifecycle.reembed import reembed_progress, reembed_run
from memories.models import Memory, MemoryEmbedding
from memories.read.context import ContextRequest, memory_context_build
from memories.read.index import retrieval_index_of
from memories.read.ranking import FEW, query_plan, semantic_query, term_counts
from memories.read.scope import ContextScope, memory_context_candidates, read_grant_for
from memories.read.sealed import open_vectors
from memories.services.records import memory_delete, memory_update
from memories.services.subjects import subject_erase

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
CONVERSATIONS = Path(__file__).resolve().parents[2] / "fixtures" / "conversation_eval" / "en.jsonl"


def _raw_vector(memory: Memory) -> bytes:
    with connection.cursor() as cursor:
        cursor.execute("SELECT vector FROM memories_memoryembedding WHERE memory_id = %s", [memory.pk.hex])
        row = cursor.fetchone()
    if row is None:  # PostgreSQL stores the uuid natively
        with connection.cursor() as cursor:
            cursor.execute("SELECT vector FROM memories_memoryembedding WHERE memory_id = %s", [memory.pk])
            row = cursor.fetchone()
    return bytes(row[0])


def _read(world, query: str, **fields):
    caller = Caller(tenant_id=world.demo.pk, actor=f"agent:{world.demo_agent.name}", agent=world.demo_agent)
    return memory_context_build(
        caller=caller, request=ContextRequest(scope=ContextScope(user_id="alice"), query=query, **fields)
    )


def test_a_written_memory_is_embedded_and_its_vector_is_sealed(world, make_memory):
    memory = make_memory(world.demo, "Prefers comparison tables when choosing", user_id="alice")
    row = MemoryEmbedding.objects.get(memory=memory)
    embedder = current_embedder()
    assert row.model == embedder.name and row.user_id == "alice" and row.tenant_id == world.demo.pk
    expected = embedder.embed([memory.content], kind="document")[0]
    assert np.allclose(unpack_vector(row.vector), expected, atol=1e-3)  # float16 at rest
    raw = _raw_vector(memory)
    assert pack_vector(expected).encode() not in raw and raw[0] == 1  # a memgov AES-GCM blob, not the text


def test_a_vector_does_not_open_for_another_row(world, make_memory):
    first = make_memory(world.demo, "Likes tables", user_id="alice")
    second = make_memory(world.demo, "Likes charts", user_id="alice")
    MemoryEmbedding.objects.filter(memory=second).update(vector=_raw_vector(first))  # swap the blob in
    grant = read_grant_for(
        caller=Caller(tenant_id=world.demo.pk, actor="agent:x", agent=world.demo_agent),
        scope=ContextScope(user_id="alice"),
    ).grant
    candidates = memory_context_candidates(grant=grant, now=datetime.now(UTC), model=current_embedder().name)
    opened = dict(zip([c.id for c in candidates], open_vectors(candidates, tenant_id=world.demo.pk), strict=True))
    assert opened[str(first.pk)] is not None and opened[str(second.pk)] is None


def test_an_edit_replaces_the_vector_and_a_deletion_removes_it(world, make_memory):
    memory = make_memory(world.demo, "Prefers short answers", user_id="alice")
    before = unpack_vector(MemoryEmbedding.objects.get(memory=memory).vector)
    memory = memory_update(memory=memory, actor="test", content="Deploys with kubernetes")
    after = unpack_vector(MemoryEmbedding.objects.get(memory=memory).vector)
    assert not np.allclose(before, after)
    memory_delete(memory=memory, actor="test")
    assert not MemoryEmbedding.objects.filter(memory_id=memory.pk).exists()


@pytest.mark.skipif("connection.vendor != 'sqlite'", reason="reads the SQLite file itself")
@pytest.mark.django_db(transaction=True)
def test_after_a_purge_no_byte_of_a_deleted_memorys_vector_is_left(world, make_memory):
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA secure_delete = OFF")  # the purge job must turn it on itself
    with time_machine.travel(T0, tick=False):
        memory = make_memory(world.demo, "Prefers dark mode screenshots", user_id="alice")
        needle = _raw_vector(memory)[-24:]  # a fragment of the sealed vector: a search that can fail
        assert needle in sqlite_file_bytes(Path(connection.settings_dict["NAME"]))
        memory_delete(memory=memory, actor="test")
    assert not MemoryEmbedding.objects.filter(memory_id=memory.pk).exists()
    with time_machine.travel(T0 + timedelta(days=31), tick=False):
        assert purge_run()["purged"] == 1
    assert needle not in sqlite_file_bytes(Path(connection.settings_dict["NAME"]))


@pytest.mark.skipif("connection.vendor != 'sqlite'", reason="reads the SQLite file itself")
@pytest.mark.django_db(transaction=True)
def test_an_erased_subjects_vectors_are_shredded_and_gone_from_the_file(world, make_memory):
    memories = [make_memory(world.demo, f"Prefers layout {n}", user_id="alice") for n in range(3)]
    kept = make_memory(world.demo, "Prefers layout of bob", user_id="bob")
    needles = [_raw_vector(m)[-24:] for m in memories]
    assert all(needle in sqlite_file_bytes(Path(connection.settings_dict["NAME"])) for needle in needles)
    subject_erase(tenant_id=world.demo.pk, user_id="alice", actor="test")
    assert not MemoryEmbedding.objects.filter(memory_id__in=[m.pk for m in memories]).exists()
    assert MemoryEmbedding.objects.filter(memory=kept).exists()
    assert sqlite_truncate_wal()  # what each process's background checkpoint does within a second
    data = sqlite_file_bytes(Path(connection.settings_dict["NAME"]))
    assert [needle for needle in needles if needle in data] == []


def test_the_read_ranks_with_the_vectors_and_says_so(world, make_memory):
    for text in ("Lives in Berlin", "Plays the cello", "Uses PostgreSQL for every service", "Has two cats"):
        make_memory(world.demo, text, user_id="alice", type="user_profile")
    result = _read(world, "which database do we run?")
    assert result.ranking == "hybrid"
    assert result.items[0].content == "Uses PostgreSQL for every service"
    assert result.items[0].cosine is not None and "semantic" in result.items[0].why
    with override_settings(MEMGOV_EMBEDDER="none"):
        lexical = _read(world, "which database do we run?")
    assert lexical.ranking == "lexical" and all(item.cosine is None for item in lexical.items)


def test_the_builtin_embedder_reads_chinese_through_the_dictionary():
    embedder = BuiltinEmbedder()
    query, english, other = embedder.embed(["我的数据库", "my database", "my bicycle"], kind="document")
    assert query @ english > query @ other
    assert embedder.embed([], kind="query").shape == (0, 256)


# --- an OpenAI-compatible endpoint, served by the test ------------------------------------------


class _FakeEmbeddings(BaseHTTPRequestHandler):
    """``POST /v1/embeddings``: a vector per input, from the input's letters (deterministic)."""

    requests: list[dict] = []
    status = 200

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
        if self.status != 200:
            self.send_response(self.status)
            self.end_headers()
            return
        data = []
        for index, text in enumerate(body["input"]):
            vector = [text.lower().count(letter) + 0.01 for letter in "abcdefghijklmnop"]
            data.append({"object": "embedding", "index": index, "embedding": vector})
        payload = json.dumps({"object": "list", "data": list(reversed(data)), "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:  # quiet
        pass


@pytest.fixture
def endpoint():
    _FakeEmbeddings.requests, _FakeEmbeddings.status = [], 200
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeEmbeddings)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_the_endpoint_embedder_speaks_the_openai_protocol(endpoint):
    embedder = OpenAIEmbedder(url=endpoint, model="m-small", api_key="k-1", timeout=5, dimensions=0)
    vectors = embedder.embed(["abc", "ppp"], kind="document")
    assert vectors.shape == (2, 16) and np.allclose(np.linalg.norm(vectors, axis=1), 1)
    assert vectors[0][0] > vectors[1][0]  # answers are put back in input order by their index
    (sent,) = _FakeEmbeddings.requests
    assert sent["path"] == "/v1/embeddings" and sent["auth"] == "Bearer k-1"
    assert sent["model"] == "m-small" and sent["input"] == ["abc", "ppp"]
    assert embedder.name == "openai:m-small" and not embedder.inline


def test_an_endpoint_outage_is_an_unavailable_embedder_naming_no_text(endpoint):
    _FakeEmbeddings.status = 503
    embedder = OpenAIEmbedder(url=endpoint, model="m", api_key="", timeout=5, dimensions=0)
    with pytest.raises(EmbedderUnavailable, match="HTTP 503") as raised:
        embedder.embed(["a secret text"], kind="query")
    assert "secret" not in str(raised.value)
    down = OpenAIEmbedder(url="http://127.0.0.1:9/v1", model="m", api_key="", timeout=1, dimensions=0)
    with pytest.raises(EmbedderUnavailable, match="did not answer"):
        down.embed(["a secret text"], kind="query")


def test_with_an_endpoint_the_job_fills_the_vectors_and_an_outage_leaves_the_read_lexical(
    world, make_memory, endpoint, caplog
):
    configured = {"MEMGOV_EMBEDDER": "openai", "MEMGOV_EMBEDDER_URL": endpoint, "MEMGOV_EMBEDDER_MODEL": "m"}
    with override_settings(**configured):
        memory = make_memory(world.demo, "Prefers aaa bbb answers", user_id="alice")
        make_memory(world.demo, "Likes ppp ooo", user_id="alice")
        assert not MemoryEmbedding.objects.exists()  # not inline: left to the job
        assert reembed_progress().remaining == 2
        assert reembed_run()["embedded"] == 2
        assert reembed_progress().remaining == 0
        assert MemoryEmbedding.objects.get(memory=memory).model == "openai:m"
        assert _read(world, "aaa").ranking == "hybrid"
        _FakeEmbeddings.status = 500
        with caplog.at_level(logging.WARNING):
            result = _read(world, "aaa bbb")
        assert result.ranking == "lexical" and result.items[0].content == "Prefers aaa bbb answers"
        assert "aaa" not in caplog.text and "HTTP 500" in caplog.text
        make_memory(world.demo, "Likes ccc", user_id="alice")
        assert reembed_run()["unavailable"] == 1  # waits for the next run; nothing lost
        assert Memory.objects.filter(tenant=world.demo).count() == 3


# --- a model2vec model directory ----------------------------------------------------------------


@pytest.fixture
def model_dir(tmp_path) -> Path:
    """A tiny model2vec model made here (a word-level tokenizer and random vectors), saved as a directory."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    words = ["[UNK]", "[PAD]", "tables", "charts", "database", "postgres", "cat", "dog"]
    tokenizer = Tokenizer(WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    vectors = np.random.default_rng(7).normal(size=(len(words), 12)).astype(np.float32)
    vectors[words.index("postgres")] = vectors[words.index("database")] + 0.01
    StaticModel(vectors=vectors, tokenizer=tokenizer).save_pretrained(tmp_path / "tiny-m2v")
    return tmp_path / "tiny-m2v"


def test_a_model2vec_directory_is_loaded_from_its_path(model_dir):
    embedder = Model2VecEmbedder(str(model_dir))
    database, postgres, cat = embedder.embed(["database", "postgres", "cat"], kind="document")
    assert database @ postgres > 0.99 > database @ cat
    assert embedder.name.startswith("model2vec:tiny-m2v:") and embedder.dimensions == 12 and embedder.inline


def test_a_missing_model_directory_fails_at_configuration(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="MEMGOV_EMBEDDER_PATH"):
        Model2VecEmbedder(str(tmp_path / "nothing"))
    model2vec = override_settings(MEMGOV_EMBEDDER="model2vec", MEMGOV_EMBEDDER_PATH=str(tmp_path))
    with model2vec, pytest.raises(ImproperlyConfigured):
        current_embedder()
    ftp = override_settings(MEMGOV_EMBEDDER="openai", MEMGOV_EMBEDDER_URL="ftp://x", MEMGOV_EMBEDDER_MODEL="m")
    with ftp, pytest.raises(ImproperlyConfigured, match="http"):
        current_embedder()


def test_a_model_change_is_re_embedded_by_the_job_with_progress(world, make_memory, model_dir):
    memories = [make_memory(world.demo, f"tables and charts {n}", user_id="alice") for n in range(5)]
    builtin = current_embedder().name
    with override_settings(MEMGOV_EMBEDDER="model2vec", MEMGOV_EMBEDDER_PATH=str(model_dir)):
        new = current_embedder().name
        progress = reembed_progress()
        assert (progress.model, progress.embedded, progress.remaining, progress.stale) == (new, 0, 5, 5)
        # Until the job ran, the old vectors are not used: the read ranks on words alone.
        assert _read(world, "tables").ranking == "lexical"
        out = StringIO()
        call_command("reembed_memories", "--batch-size", "2", stdout=out)
        lines = out.getvalue().splitlines()
        assert lines[0].endswith(f"model {new}: 0 embedded, 5 remaining, 5 of another model")
        assert lines[-1].endswith(f"model {new}: 5 embedded, 0 remaining, 0 of another model")
        assert len(lines) == 1 + 3  # the status, then batches of 2, 2 and 1
        assert set(MemoryEmbedding.objects.values_list("model", flat=True)) == {new}
        assert _read(world, "tables").ranking == "hybrid"
    assert builtin != new and len(memories) == 5


def test_with_no_embedder_the_job_removes_the_vectors(world, make_memory):
    make_memory(world.demo, "Prefers tables", user_id="alice")
    with override_settings(MEMGOV_EMBEDDER="none"):
        assert reembed_progress().stale == 1
        assert reembed_run()["removed"] == 1
        assert not MemoryEmbedding.objects.exists()
        make_memory(world.demo, "Prefers charts", user_id="alice")
        assert not MemoryEmbedding.objects.exists()


def test_a_name_most_memories_share_does_not_steer_the_query_vector(world, make_memory):
    """Turns of a conversation all carry their speaker's name. BM25's idf gives that name almost no weight;
    without the same in the query's vector, turns that are little but the name ("Maren: of course") ranked
    above the ones about the question. A dev conversation of the conversation set, each turn a memory."""
    (conversation,) = [c for c in load_conversations([CONVERSATIONS]) if c.id == "en01"]
    for turn in conversation.turns:
        make_memory(world.demo, turn.content, user_id="alice", type="user_profile")
    question = "What breed is Maren's dog?"
    unindexed = _read(world, question, top_k=10).items
    assert unindexed and "dog" in unindexed[0].content
    assert [item.content for item in unindexed if len(item.content.split()) <= 4] == []  # "Maren: of course"
    call_command("refresh_retrieval_indexes", stdout=StringIO())
    assert retrieval_index_of(tenant_id=world.demo.pk, owner="alice") is not None
    indexed = _read(world, question, top_k=10).items
    assert [(i.id, i.score) for i in indexed] == [(i.id, i.score) for i in unindexed]


CHATTER = ["of course", "THEO", "stop it", "that makes total sense", "yes nurse"] * 7


def test_the_query_vector_leaves_out_only_words_most_candidates_share():
    texts = [f"Maren: {line.strip()}" for line in CHATTER] + ["Theo: the lurcher again"]
    plan = query_plan("What breed is Maren's dog?")
    assert semantic_query("What breed is Maren's dog?", plan, term_counts(plan.terms, texts)) == "What breed is 's dog?"
    every = query_plan("Maren")  # nothing else to read: the query is read whole
    assert semantic_query("Maren", every, term_counts(every.terms, texts)) == "Maren"
    few = texts[:FEW]  # among a few candidates no share is telling
    assert (
        semantic_query("What breed is Maren's dog?", plan, term_counts(plan.terms, few)) == "What breed is Maren's dog?"
    )
    chinese = query_plan("小林的猫叫什么")
    said = [f"小林: {line.strip()}" for line in CHATTER] + ["阿杰: 猫"]
    assert semantic_query("小林的猫叫什么", chinese, term_counts(chinese.terms, said)) == "的猫叫什么"
