"""The Celery side: configuration, the beat schedule, retries, the run_stack launcher, and a REAL worker
process running the jobs through a real broker (Redis, and the embedded filesystem broker)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from child_env import database_env
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from audit import tasks as audit_tasks  # noqa: F401 — registers the checkpoint task
from audit.checkpoints import DirectorySink
from audit.models import AuditChainHead, AuditEvent
from audit.verify import verify_chain
from config.celery import (
    EMBEDDED_BROKER_URL,
    app,
    celery_settings,
    embedded_broker_options,
    lifecycle_beat_schedule,
)
from conversations.models import Session
from conversations.services.events import NewEvent, session_events_append
from conversations.services.sessions import session_create
from demo.management.commands.run_stack import ProcessGroup, ProcessSpec, stack_specs
from governance.pipeline.base import Scope
from governance.vocabulary import Level, Status
from memories import tasks
from memories.lifecycle import periodic_jobs
from memories.lifecycle.base import JobResult
from memories.models import Memory, MergeProposal
from memories.services.records import NewMemory, memory_create

PERIODIC = {"expire", "invalidate", "unused", "purge", "consolidate", "reembed", "reindex", "retrieval"}


def test_the_beat_schedules_the_audit_checkpoint_as_a_registered_task(monkeypatch):
    schedule = celery_settings()["beat_schedule"]
    assert schedule["audit-checkpoint"]["task"] == "memgov.audit.checkpoint" in set(app.tasks)
    assert schedule["audit-checkpoint"]["schedule"] == 300.0
    monkeypatch.setenv("MEMGOV_AUDIT_CHECKPOINT_EVERY", "0")
    assert "audit-checkpoint" not in celery_settings()["beat_schedule"]


def test_the_beat_schedules_every_periodic_job_as_a_registered_task():
    schedule = lifecycle_beat_schedule()
    scheduled = {entry["task"] for entry in schedule.values()}
    assert scheduled == {f"memgov.lifecycle.{job}" for job in PERIODIC | {"sessions_purge", "extract"}}
    assert set(periodic_jobs()) == PERIODIC
    import conversations.tasks  # noqa: F401 — registers the session purge, as the worker's autodiscovery does

    registered = set(app.tasks)
    assert all(entry["task"] in registered for entry in schedule.values())
    assert schedule["lifecycle-expire"]["schedule"] == 60.0


def test_a_jobs_period_comes_from_the_environment_and_zero_turns_it_off(monkeypatch):
    monkeypatch.setenv("MEMGOV_LIFECYCLE_EXPIRE_EVERY", "15")
    monkeypatch.setenv("MEMGOV_LIFECYCLE_PURGE_EVERY", "0")
    schedule = lifecycle_beat_schedule()
    assert schedule["lifecycle-expire"]["schedule"] == 15.0
    assert "lifecycle-purge" not in schedule


def test_without_a_broker_url_the_embedded_filesystem_broker_is_used(settings, tmp_path):
    settings.CELERY_BROKER_URL = ""
    settings.VAR_DIR = tmp_path
    conf = celery_settings()
    assert conf["broker_url"] == "filesystem://localhost//"
    options = conf["broker_transport_options"]
    assert options["data_folder_in"] == options["data_folder_out"] == str(tmp_path / "broker" / "queue")
    assert (tmp_path / "broker" / "queue").is_dir() and (tmp_path / "broker" / "control").is_dir()
    assert conf["task_ignore_result"] is True and conf["result_backend"] is None
    assert conf["beat_schedule_filename"] == str(tmp_path / "celerybeat-schedule")


def test_a_broker_url_selects_redis(settings):
    settings.CELERY_BROKER_URL = "redis://cache.internal:6379/2"
    conf = celery_settings()
    assert conf["broker_url"] == "redis://cache.internal:6379/2"
    assert conf["broker_transport_options"] == {"visibility_timeout": 3600}


def test_a_task_retries_a_transient_database_error_and_then_succeeds(monkeypatch):
    calls = []

    def flaky(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return JobResult("expire")

    monkeypatch.setitem(tasks.lifecycle_job_run.__globals__, "periodic_jobs", lambda: {"expire": flaky})
    result = tasks.lifecycle_expire.apply(kwargs={"batch_size": 7})
    assert result.successful()
    assert result.result == {"job": "expire", "batches": 1}
    assert len(calls) == 2 and calls[1]["batch_size"] == 7
    assert tasks.lifecycle_expire.max_retries == 8
    assert OperationalError in tasks.lifecycle_expire.autoretry_for


def test_a_bug_is_not_retried(monkeypatch):
    calls = []

    def broken(**kwargs):
        calls.append(kwargs)
        raise ValueError("a bug")

    monkeypatch.setitem(tasks.lifecycle_job_run.__globals__, "periodic_jobs", lambda: {"purge": broken})
    result = tasks.lifecycle_purge.apply()
    assert result.failed() and len(calls) == 1


# --- run_stack: start together, stop together ----------------------------------------------------


def _sleeper(name: str, *, ignore_term: bool = False, exit_after: float | None = None, code: int = 0) -> ProcessSpec:
    lines = ["import signal, sys, time", f"print('{name} up', flush=True)"]
    if ignore_term:
        lines.append("signal.signal(signal.SIGTERM, signal.SIG_IGN)")
    if exit_after is not None:
        lines += [f"time.sleep({exit_after})", f"sys.exit({code})"]
    else:
        lines.append("time.sleep(60)")
    return ProcessSpec(name, [sys.executable, "-c", "; ".join(lines)])


def test_run_stack_stops_every_process_when_asked():
    out = io.StringIO()
    group = ProcessGroup([_sleeper("web"), _sleeper("worker"), _sleeper("beat")], out=out, grace=5)
    group.start()
    threading.Timer(1.5, group.request_stop).start()
    assert group.wait() == 0
    assert all(proc.poll() is not None for proc in group.procs.values())
    text = out.getvalue()
    assert "web    | web up" in text and "worker | worker up" in text and "beat   | beat up" in text
    assert "all processes stopped" in text


def test_when_one_process_dies_the_others_are_stopped_and_its_code_is_returned():
    group = ProcessGroup([_sleeper("web"), _sleeper("worker", exit_after=0.5, code=3)], out=io.StringIO(), grace=5)
    group.start()
    started = time.monotonic()
    assert group.wait() == 3
    assert group.procs["web"].returncode == -signal.SIGTERM
    assert time.monotonic() - started < 10


def test_a_process_that_ignores_sigterm_is_killed_after_the_grace_period():
    group = ProcessGroup([_sleeper("stubborn", ignore_term=True)], out=io.StringIO(), grace=0.5)
    group.start()
    time.sleep(0.5)  # let it install its handler
    group.request_stop()
    assert group.wait() == 0
    assert group.procs["stubborn"].returncode == -signal.SIGKILL


def test_the_embedded_stack_is_web_one_worker_and_exactly_one_beat():
    specs = stack_specs(host="127.0.0.1", port=8123)
    assert [spec.name for spec in specs] == ["web", "worker", "beat"]
    assert specs[0].argv[-5:] == ["config.asgi:application", "--host", "127.0.0.1", "--port", "8123"]
    assert "--pool=solo" in specs[1].argv and specs[2].argv[-2:] == ["beat", "--loglevel=INFO"]
    gunicorn = stack_specs(host="0.0.0.0", port=80, web="gunicorn", with_beat=False)
    assert [spec.name for spec in gunicorn] == ["web", "worker"]
    assert "gunicorn" in gunicorn[0].argv


# --- a real worker process, a real broker ----------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def _redis_url() -> Iterator[str]:
    """MEMGOV_TEST_REDIS_URL (CI), or a throwaway redis-server of our own on a free port."""
    if os.environ.get("MEMGOV_TEST_REDIS_URL"):
        yield os.environ["MEMGOV_TEST_REDIS_URL"]
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed and MEMGOV_TEST_REDIS_URL is not set")
    import redis

    port = _free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(host="127.0.0.1", port=port)
        for _ in range(100):
            with contextlib.suppress(redis.ConnectionError):
                if client.ping():
                    break
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _wait_for(predicate, *, timeout: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.25)
    pytest.fail(f"timed out waiting for {what}; worker log:\n{log.read_text()[-4000:]}")


@contextlib.contextmanager
def _worker(
    *, broker_url: str | None, queue: str, var_dir: Path, log: Path, metrics_port: int
) -> Iterator[subprocess.Popen]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",  # production settings, as a deployed worker has
        **database_env(),
        MEMGOV_VAR_DIR=str(var_dir),
        # The shared tree may hold other people's half-finished URL modules; this test is about the worker.
        CELERY_SKIP_CHECKS="1",
        PYTHONUNBUFFERED="1",
        MEMGOV_WORKER_METRICS_PORT=str(metrics_port),
    )
    env.pop("MEMGOV_BROKER_URL", None)
    if broker_url:
        env["MEMGOV_BROKER_URL"] = broker_url
    argv = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"]
    argv += ["-Q", queue, "-n", f"{queue}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    with log.open("w") as out:
        proc = subprocess.Popen(argv, cwd=settings.BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_for(lambda: "ready." in log.read_text(), timeout=240, what="the worker to start", log=log)
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)  # warm shutdown: finishes the task in hand
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _send(name: str, *, broker_url: str, transport_options: dict | None, queue: str) -> None:
    kwargs = {} if name.startswith("memgov.audit.") else {"batch_size": 50}
    with app.connection_for_write(broker_url, transport_options=transport_options or {}) as conn:
        app.send_task(name, kwargs=kwargs, queue=queue, connection=conn)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("broker", ["redis", "filesystem"])
def test_a_real_worker_runs_the_jobs_through_the_broker_each_effect_once(world, broker, tmp_path):
    past = timezone.now() - timedelta(seconds=1)
    expiring = [
        memory_create(
            tenant_id=world.demo.pk,
            new=NewMemory(
                scope=Scope(Level.SESSION, user_id="alice", session_id="s1"),
                type="temporary_context",
                content=f"context {i}",
                source_type="user_statement",
                expires_at=past,
            ),
            actor="test",
        )
        for i in range(3)
    ]
    for text in ("Prefers Markdown tables when comparing options.", "Prefers Markdown tables when comparing options"):
        memory_create(
            tenant_id=world.demo.pk,
            new=NewMemory(
                scope=Scope(Level.USER, user_id="bob"),
                type="user_preference",
                content=text,
                source_type="explicit_user_request",
            ),
            actor="test",
        )
    # An ended session past the retention period: the session purge deletes it.
    ended = session_create(tenant_id=world.demo.pk, user_id="alice", app="chat", actor="test")
    session_events_append(
        tenant_id=world.demo.pk, session_id=ended.pk, events=[NewEvent(kind="user_message", content="hi")], actor="t"
    )
    Session.objects.filter(pk=ended.pk).update(state="ended", ended_at=timezone.now() - timedelta(days=31))
    queue = f"memgov-test-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    with contextlib.ExitStack() as stack:
        if broker == "redis":
            broker_url, options = stack.enter_context(_redis_url()), None
        else:
            broker_url, options = EMBEDDED_BROKER_URL, embedded_broker_options(tmp_path)
        metrics_port = _free_port()
        stack.enter_context(
            _worker(
                broker_url=broker_url if broker == "redis" else None,
                queue=queue,
                var_dir=tmp_path,
                log=log,
                metrics_port=metrics_port,
            )
        )
        # The same job twice (a beat tick and an operator, say) and the consolidation, which has to
        # decrypt: the worker shares nothing with this process but the database and the master key.
        # Then the sessions' retention job, and the audit checkpoint job, which signs each chain head and
        # writes it outside the database.
        names = ("expire", "expire", "consolidate", "sessions_purge")
        for name in names:
            _send(f"memgov.lifecycle.{name}", broker_url=broker_url, transport_options=options, queue=queue)
        # A broker need not deliver in the order sent (the filesystem one doesn't always): the checkpoint
        # goes once the jobs are done, so the head it signs is the chain after all of them.
        _wait_for(lambda: log.read_text().count("succeeded in") >= 4, timeout=90, what="4 jobs", log=log)
        _send("memgov.audit.checkpoint", broker_url=broker_url, transport_options=options, queue=queue)
        _wait_for(lambda: log.read_text().count("succeeded in") >= 5, timeout=90, what="5 tasks", log=log)
        # The worker publishes the jobs' counts: the second expire run found nothing left to do.
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).read().decode()
        assert 'memgov_lifecycle_items_total{job="expire",outcome="expired"} 3.0' in metrics
        assert 'memgov_lifecycle_items_total{job="consolidate",outcome="proposed"} 1.0' in metrics
        assert 'memgov_lifecycle_runs_total{job="expire",result="ok"} 2.0' in metrics

    assert f"Connected to {'redis' if broker == 'redis' else 'filesystem'}://" in log.read_text()
    for memory in expiring:
        assert Memory.objects.get(pk=memory.pk).status == Status.EXPIRED
        events = AuditEvent.objects.filter(event="memory_expired", memory_id=memory.pk)
        assert [event.actor for event in events] == ["system:lifecycle.expire"]
    proposal = MergeProposal.objects.get()
    assert proposal.user_id == "bob"
    assert proposal.memory.content == "Prefers Markdown tables when comparing options."
    assert not Session.objects.filter(pk=ended.pk).exists()
    assert AuditEvent.objects.get(event="session_deleted").actor == "system:lifecycle.sessions_purge"
    assert verify_chain(tenant_id=world.demo.pk).ok
    # The worker's checkpoint (in its own var/) names the chain head as it was after the three jobs.
    checkpoint = DirectorySink(tmp_path / "audit-checkpoints").latest(tenant_id=world.demo.pk)
    head = AuditChainHead.objects.get(tenant=world.demo)
    assert checkpoint is not None and (checkpoint.seq, checkpoint.hash) == (head.seq, head.head_hash)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_re_embeds_the_memories_a_model_change_left_behind(world, tmp_path):
    from django.test import override_settings

    from memories.embedding.embedders import BuiltinEmbedder
    from memories.models import MemoryEmbedding

    with override_settings(MEMGOV_EMBEDDER="none"):  # written before the model was configured
        for text in ("Prefers tables", "部署用 kubernetes", "Lives in Berlin"):
            memory_create(
                tenant_id=world.demo.pk,
                new=NewMemory(
                    scope=Scope(Level.USER, user_id="alice"),
                    type="user_profile",
                    content=text,
                    source_type="explicit_user_request",
                ),
                actor="test",
            )
    assert not MemoryEmbedding.objects.exists()
    queue = f"memgov-test-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    options = embedded_broker_options(tmp_path)
    # The worker runs with the default embedder (the built-in model): it embeds what has no vector of it.
    with _worker(broker_url=None, queue=queue, var_dir=tmp_path, log=log, metrics_port=_free_port()):
        _send("memgov.lifecycle.reembed", broker_url=EMBEDDED_BROKER_URL, transport_options=options, queue=queue)
        _wait_for(lambda: "succeeded in" in log.read_text(), timeout=120, what="the reembed task", log=log)
    assert MemoryEmbedding.objects.filter(tenant=world.demo).count() == 3
    assert set(MemoryEmbedding.objects.values_list("model", flat=True)) == {BuiltinEmbedder().name}


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_extracts_ended_sessions_once_however_often_the_job_is_sent(world, tmp_path):
    """Phase 1 on a worker: two sends of the extract job (a beat tick and an operator) over Redis; each
    session is extracted once, each candidate written once, through the write pipeline."""
    from conversations.models import ExtractionClaim, ExtractionWrite
    from conversations.services.sessions import SessionChange, session_update

    for text in ("Remember: never push directly to main!", "记住：以后回答我都用中文。"):
        session = session_create(tenant_id=world.demo.pk, user_id="alice", app="chat", actor="test")
        session_events_append(
            tenant_id=world.demo.pk, session_id=session.pk, events=[NewEvent(kind="user_message", content=text)],
            actor="test",
        )  # fmt: skip
        session_update(
            tenant_id=world.demo.pk, session_id=session.pk, change=SessionChange(state="ended"), actor="test"
        )
    queue = f"memgov-test-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    with contextlib.ExitStack() as stack:
        broker_url = stack.enter_context(_redis_url())
        metrics_port = _free_port()
        stack.enter_context(
            _worker(broker_url=broker_url, queue=queue, var_dir=tmp_path, log=log, metrics_port=metrics_port)
        )
        for _ in range(2):
            _send("memgov.lifecycle.extract", broker_url=broker_url, transport_options=None, queue=queue)
        _wait_for(lambda: log.read_text().count("succeeded in") >= 2, timeout=120, what="2 tasks", log=log)
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).read().decode()
        assert 'memgov_lifecycle_items_total{job="extract",outcome="extracted"} 2.0' in metrics
    memories = Memory.objects.filter(user_id="alice")
    assert sorted(m.type for m in memories) == ["constraint", "user_preference"]
    assert all(m.status == Status.ACTIVE and m.created_by == "system:lifecycle.extract" for m in memories)
    assert ExtractionWrite.objects.count() == 2
    assert set(ExtractionClaim.objects.values_list("state", "attempts")) == {("done", 1)}
