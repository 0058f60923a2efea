"""Phase 1 extraction: what it proposes, through the write pipeline, with provenance; what it skips; what
it redacts before anything is derived; and that a claim that dies is retried without a second effect."""

from __future__ import annotations

import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone
from session_helpers import append, fresh

from audit.models import AuditEvent
from conversations.extraction import run as extraction
from conversations.extraction.run import LEASE, claim_take, extract_run, session_extract_one
from conversations.models import ExtractionClaim, ExtractionWrite, Session
from conversations.services.events import NewEvent
from conversations.services.sessions import SessionChange, session_update
from conversations.services.tasks import task_state_update
from governance.vocabulary import Level, MemoryType, SourceType, Status
from memories.models import Memory, MemorySource
from memories.services.subjects import subject_set_paused

SECRET = "sk-proj-bf1eNOXPGQjT-nKCG3u_-4Oq7ZaOLXcDnXqZMMaoT3BlbkFJHIJ7I4QEMWNX8R5DQGkLUELaA4rqrdqmQVSnYkOC"


@pytest.fixture(autouse=True, scope="module")
def _detector_ready() -> None:
    from governance.recognizers import warm_up

    warm_up()


def end(session: Session) -> Session:
    return session_update(
        tenant_id=session.tenant_id, session_id=session.pk, change=SessionChange(state="ended"), actor="test"
    )


def said(session: Session, *turns: tuple[str, str]) -> list:
    return append(session, *(NewEvent(kind=kind, content=text) for kind, text in turns))


def memories_of(user_id: str = "alice") -> list[Memory]:
    return list(Memory.objects.filter(user_id=user_id).exclude(status=Status.DELETED).order_by("created_at"))


def test_an_explicit_request_becomes_a_saved_memory_with_its_session_and_event(world, make_session):
    session = make_session()
    events = said(
        session,
        ("user_message", "git 里怎么撤销最近一次 commit？"),
        ("assistant_message", "用 git reset --soft HEAD~1。"),
        ("user_message", "记住：以后回答我都用中文，技术名词保留英文。"),
        ("assistant_message", "好的，已记下。"),
    )
    end(session)
    result = extract_run(tenant_id=world.demo.pk)
    assert result["extracted"] == 1 and result["candidates"] == 1
    (memory,) = memories_of()
    assert memory.status == Status.ACTIVE and memory.type == MemoryType.USER_PREFERENCE
    assert memory.source_type == SourceType.EXPLICIT_USER_REQUEST and "中文" in memory.content
    assert "记住" not in memory.content
    assert memory.source_message_id == str(events[2].pk)
    source = MemorySource.objects.get(memory=memory)
    assert source.session_id == str(session.pk) and source.event_ids == [str(events[2].pk)]
    # Proposed by the job, decided by the pipeline: the audit trail is the write path's own.
    written = AuditEvent.objects.filter(tenant=world.demo, event="memory_write_approved", memory_id=memory.pk)
    assert written.get().actor == "system:lifecycle.extract"
    assert fresh(session).extraction.state == ExtractionClaim.State.DONE
    # Nothing new: a second run finds nothing to do.
    again = extract_run(tenant_id=world.demo.pk)
    assert again["extracted"] == 0 and len(memories_of()) == 1


def test_dont_remember_and_this_time_only_yield_nothing(world, make_session):
    session = make_session()
    said(
        session,
        ("user_message", "Don't remember this: I'm only on light mode because my screen is broken."),
        ("assistant_message", "Understood."),
        ("user_message", "这只是本次的，下次不用这样：回复全部用繁体。"),
        ("assistant_message", "好的。"),
        ("user_message", "Remember I like tables for comparisons. The German was just for today, don't save that."),
    )
    end(session)
    extract_run(tenant_id=world.demo.pk)
    (memory,) = memories_of()
    assert "tables" in memory.content and "German" not in memory.content


@pytest.mark.parametrize("how", ["dont_save", "subagent", "paused"])
def test_skipped_sessions_yield_nothing_not_even_task_state(world, make_session, how):
    if how == "paused":
        subject_set_paused(tenant_id=world.demo.pk, user_id="alice", paused=True, actor="test")
    session = make_session(**({how: True} if how != "paused" else {}))
    said(session, ("user_message", "Remember: I'm on the payments team."))
    append(session, NewEvent(kind="user_message", content="Finish the onboarding form.", task_id="t-1"))
    task_state_update(
        tenant_id=world.demo.pk, session_id=session.pk, task_id="t-1", values={"goal": "onboarding"}, actor="test"
    )
    end(session)
    result = extract_run(tenant_id=world.demo.pk)
    assert result[f"skipped_{how}"] == 1
    assert memories_of() == []
    claim = fresh(session).extraction
    assert claim.state == ExtractionClaim.State.SKIPPED and claim.outcome == how


def test_system_developer_messages_excluded_fragments_and_secrets_never_reach_anything(world, make_session, caplog):
    caplog.set_level(logging.DEBUG)
    session = make_session()
    said(
        session,
        ("system_message", "Remember: the user is an admin with the password hunter2-Zx9!"),
        ("developer_message", "Remember to always answer formally with a disclaimer."),
        ("user_message", "<environment_context>Remember: cwd is /srv/secret-project</environment_context> hi"),
        ("user_message", f"帮我配置一下，key 是 {SECRET}。另外记住，我们的服务都部署在 us-west-2。"),
        ("assistant_message", f"已写入 .env（{SECRET[:20]}…）。也记下了：服务部署在 us-west-2。"),
    )
    end(session)
    extract_run(tenant_id=world.demo.pk)
    (memory,) = memories_of()
    assert "us-west-2" in memory.content and memory.type == MemoryType.USER_PROFILE
    texts = [m.content for m in Memory.objects.all()] + [str(a.details) for a in AuditEvent.objects.all()]
    texts += [record.getMessage() for record in caplog.records]
    for forbidden in (SECRET, "hunter2", "secret-project", "disclaimer", "formally"):
        assert not any(forbidden in text for text in texts), forbidden


def test_a_preference_repeated_across_sessions_is_one_candidate_asking_confirmation(world, make_session):
    sessions = []
    for question, request in (
        ("对比一下 MySQL 和 PostgreSQL 的复制方式。", "能把上面的对比整理成表格吗？"),
        ("三种消息队列的优缺点说一下。", "还是弄成表格吧，这样清楚。"),
        ("几家云厂商的对象存储价格差多少？", "老样子，表格。"),
    ):
        session = make_session()
        said(session, ("user_message", question), ("assistant_message", "……"), ("user_message", request))
        end(session)
        sessions.append(session)
    # One session alone is no evidence.
    extract_run(tenant_id=world.demo.pk, batch_size=1)
    assert memories_of() == []
    extract_run(tenant_id=world.demo.pk)
    (memory,) = memories_of()
    assert memory.source_type == SourceType.REPEATED_USER_BEHAVIOR
    assert memory.status == Status.PENDING_CONFIRMATION and memory.confirmation.confirm_by == "user"
    assert MemorySource.objects.get(memory=memory).session_id == str(sessions[1].pk)


def test_a_dont_save_session_is_no_evidence_of_repetition(world, make_session):
    for flags in ({"dont_save": True}, {}):
        session = make_session(**flags)
        said(session, ("user_message", "Give me that for zsh."))
        end(session)
    extract_run(tenant_id=world.demo.pk)
    assert memories_of() == []


def test_corrections_inferences_and_accepted_offers(world, make_session):
    session = make_session()
    said(
        session,
        ("user_message", "把这张差旅报销单归一下类。"),
        ("assistant_message", "我把这张差旅报销单归到 billing 了。"),
        ("user_message", "不对，差旅报销应该归 finance，不是 billing。上次也分错了。"),
        ("assistant_message", "我注意到你几次都让我把内容改成要点形式，看起来你更偏好要点式的回答。需要我记住吗？"),
        ("user_message", "我先去开会了，回头再说。"),
    )
    end(session)
    extract_run(tenant_id=world.demo.pk)
    by_type = {m.type: m for m in memories_of()}
    correction = by_type[MemoryType.CORRECTION]
    assert "finance" in correction.content and correction.source_type == SourceType.HUMAN_AGENT_CORRECTION
    inference = by_type[MemoryType.USER_PREFERENCE]
    assert inference.source_type == SourceType.AGENT_INFERENCE
    assert inference.status == Status.PENDING_CONFIRMATION and "要点" in inference.content


def test_the_ai_docs_example_project_rules_and_task_state(world, make_session):
    """§19 end to end: two rules for the project (saved, project scope), the page in progress as task
    state, and "build it this time" yields no rule."""
    first = make_session(workspace="dispatch-docs")
    said(
        first,
        (
            "user_message",
            "记住这个项目的两条规矩：改完 AI Wiki 要更新 docs/changelog.md；"
            "提交要推 lab/main 和 origin/main 两个远端。",
        ),
        ("assistant_message", "记住了：更新 changelog，推送两个远端。"),
    )
    end(first)
    second = make_session(workspace="dispatch-docs")
    append(
        second,
        NewEvent(kind="user_message", content="今天补 AI Wiki 的“评测”那篇。这次改完构建一下，我想看看渲染效果。"),
        NewEvent(kind="assistant_message", content="构建好了。《评测》还差指标表没写。", task_id="task-aiwiki-eval"),
    )
    values = {"goal": "补充 AI Wiki《评测》文档", "current_step": "待补指标表", "next_action": "补充指标表"}
    task_state_update(
        tenant_id=world.demo.pk, session_id=second.pk, task_id="task-aiwiki-eval", values=values, actor="test"
    )
    end(second)
    extract_run(tenant_id=world.demo.pk)
    rules = [m for m in memories_of() if m.type == MemoryType.PROJECT_RULE]
    assert sorted(("changelog" in m.content, "origin/main" in m.content) for m in rules) == [
        (False, True),
        (True, False),
    ]
    assert all(m.level == Level.PROJECT and m.project == "dispatch-docs" and m.status == Status.ACTIVE for m in rules)
    (task,) = [m for m in memories_of() if m.type == MemoryType.TASK_STATE]
    assert task.level == Level.TASK and task.task_id == "task-aiwiki-eval" and "指标表" in task.content
    assert task.source_type == SourceType.TASK_STATE_MACHINE
    assert not any("构建" in m.content and m.type == MemoryType.PROJECT_RULE for m in memories_of())


def test_a_kept_tool_result_becomes_a_dated_session_reference(world, make_session):
    session = make_session()
    events = said(
        session,
        ("user_message", "Where's parcel 1Z84R0A21298?"),
        ("tool_call", '{"tool": "shipping.track", "arguments": {"tracking": "1Z84R0A21298"}}'),
        ("tool_result", '{"tracking": "1Z84R0A21298", "status": "in_transit", "last_scan": "Leipzig hub"}'),
        ("assistant_message", "It's in transit, last scanned at Leipzig. I'll keep this result as a reference."),
        ("user_message", "Where's parcel 1Z99?"),
        ("tool_call", '{"tool": "shipping.track", "arguments": {"tracking": "1Z99"}}'),
        ("tool_result", '{"tracking": "1Z99", "status": "delivered"}'),
        ("assistant_message", "Delivered."),
    )
    end(session)
    extract_run(tenant_id=world.demo.pk)
    (ref,) = memories_of()
    assert ref.type == MemoryType.TOOL_RESULT_REF and ref.level == Level.SESSION and ref.expires_at is not None
    assert "Leipzig" in ref.content and "(as of " in ref.content
    assert MemorySource.objects.get(memory=ref).event_ids == [str(events[2].pk), str(events[3].pk)]


def test_an_idle_session_is_extracted_and_again_after_new_events(world, make_session):
    session = make_session()
    said(session, ("user_message", "Remember: never push directly to main!"))
    assert extract_run(tenant_id=world.demo.pk)["enqueued"] == 0  # active and recent: not yet
    later = timezone.now() + timedelta(minutes=31)
    assert extract_run(tenant_id=world.demo.pk, now=later)["extracted"] == 1
    said(session, ("user_message", "Remember: I prefer answers in English."))
    assert extract_run(tenant_id=world.demo.pk, now=later + timedelta(minutes=31))["extracted"] == 1
    assert len(memories_of()) == 2


def test_a_claim_that_dies_is_retried_and_never_writes_twice(world, make_session, monkeypatch):
    session = make_session()
    said(
        session,
        ("user_message", "Remember: never push directly to main!"),
        ("user_message", "Remember: I'm on the payments team."),
    )
    end(session)
    real = extraction._write
    calls = {"n": 0}

    def dies_after_one(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise SystemExit("the worker died")
        return real(*args, **kwargs)

    monkeypatch.setattr(extraction, "_write", dies_after_one)
    with pytest.raises(SystemExit):
        extract_run(tenant_id=world.demo.pk)
    monkeypatch.setattr(extraction, "_write", real)
    assert len(memories_of()) == 1
    # While the lease runs, nobody else takes it.
    now = timezone.now()
    assert claim_take(session.pk, now=now) is None
    assert session_extract_one(session.pk, now=now) == ("skipped_taken", 0)
    # After it, the next run takes it and writes only what the dead one had not.
    result = extract_run(tenant_id=world.demo.pk, now=now + LEASE + timedelta(seconds=1))
    assert result["extracted"] == 1 and result["candidates"] == 1
    assert len(memories_of()) == 2
    assert ExtractionWrite.objects.filter(claim__session=session).count() == 2
    claim = fresh(session).extraction
    assert claim.state == ExtractionClaim.State.DONE and claim.attempts == 2


def test_run_lifecycle_runs_extract_on_demand(world, make_session):
    session = make_session()
    said(session, ("user_message", "Remember: never push directly to main!"))
    end(session)
    out = StringIO()
    call_command("run_lifecycle", "--job", "extract", "--tenant", "demo", stdout=out)
    assert "extract:" in out.getvalue() and "extracted=1" in out.getvalue()
    assert len(memories_of()) == 1


def test_another_tenants_sessions_are_not_touched_by_a_tenant_run(world, make_session):
    session = make_session("erin", tenant=world.acme)
    said(session, ("user_message", "Remember: never push directly to main!"))
    end(session)
    extract_run(tenant_id=world.demo.pk)
    assert memories_of("erin") == []
    extract_run(tenant_id=world.acme.pk)
    (memory,) = memories_of("erin")
    assert memory.tenant_id == world.acme.pk
