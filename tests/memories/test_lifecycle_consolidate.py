"""Consolidate (§10.2): redundant memories become a merge *proposal* the person confirms; a watermark
per subject skips subjects with no change since the last pass."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from audit.models import AuditEvent
from audit.verify import verify_chain
from governance.pipeline.base import Scope
from governance.vocabulary import Level, Status
from memories.lifecycle import consolidate as consolidate_module
from memories.lifecycle.consolidate import consolidate_run
from memories.lifecycle.similarity import Item, bigrams, clusters, jaccard, merged_text, overlap
from memories.models import Confirmation, Memory, MergeProposal, Subject
from memories.services.confirmations import confirmation_accept, confirmation_decline
from memories.services.records import NewMemory, memory_create, memory_delete
from memories.services.subjects import subject_set_paused

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
SPEC_EXAMPLE = ["用户喜欢中文回答。", "用户喜欢分步骤回答。", "用户喜欢中文、分步骤、带检查清单的回答。"]


def _memory(tenant, content, *, user_id="alice", type="user_preference", level=Level.USER, **scope) -> Memory:
    return memory_create(
        tenant_id=tenant.pk,
        new=NewMemory(
            scope=Scope(level, user_id=user_id, **scope),
            type=type,
            content=content,
            source_type="explicit_user_request",
        ),
        actor="test",
    )


def _items(texts: list[str]) -> list[Item]:
    return [Item(str(i), text, bigrams(text)) for i, text in enumerate(texts)]


def _run(at: datetime, **kwargs):
    with time_machine.travel(at, tick=False):
        return consolidate_run(**kwargs)


def test_the_specs_example_merges_into_the_richest_statement():
    a, _, c = (bigrams(text) for text in SPEC_EXAMPLE)
    assert round(jaccard(a, c), 2) == 0.35 and round(overlap(a, c), 2) == 0.86
    [cluster] = clusters(_items(SPEC_EXAMPLE))
    assert [item.key for item in cluster] == ["0", "1", "2"]
    assert merged_text(cluster) == "用户喜欢中文、分步骤、带检查清单的回答。"


def test_a_member_that_adds_something_new_is_kept_in_the_merged_text():
    texts = ["Answers in Chinese with numbered steps.", "Answers in Chinese with a checklist."]
    [cluster] = clusters(_items(texts))
    assert merged_text(cluster) == "Answers in Chinese with numbered steps. Answers in Chinese with a checklist."


def test_unrelated_or_barely_related_memories_are_not_merged():
    texts = ["Prefers short answers.", "Prefers short flights.", "喜欢用表格", "Never deploy on Fridays.", "tea"]
    assert clusters(_items(texts)) == []


def test_a_cluster_becomes_a_pending_proposal_and_nothing_is_merged_silently(world):
    with time_machine.travel(T0, tick=False):
        sources = [_memory(world.demo, text) for text in SPEC_EXAMPLE]
        unrelated = _memory(world.demo, "Never deploy on Fridays.", type="constraint")
    result = _run(T0 + timedelta(minutes=1), tenant_id=world.demo.pk)

    assert result["proposed"] == 1
    proposal = MergeProposal.objects.get()
    merged = proposal.memory
    assert merged.status == Status.PENDING_CONFIRMATION
    assert merged.content == "用户喜欢中文、分步骤、带检查清单的回答。"
    assert (merged.user_id, merged.level, merged.type) == ("alice", "user", "user_preference")
    assert merged.reason_code == "consolidation_proposed"
    confirmation = Confirmation.objects.get(memory=merged)
    assert (confirmation.confirm_by, confirmation.state) == ("user", "pending")
    assert proposal.source_ids == [str(m.pk) for m in sources]
    # The sources are untouched until the person says yes.
    assert all(Memory.objects.get(pk=m.pk).status == Status.ACTIVE for m in (*sources, unrelated))
    event = AuditEvent.objects.get(event="memory_write_requested", memory_id=merged.pk)
    assert event.requires_confirmation is True and event.reason_code == "consolidation_proposed"
    assert event.details["merge_of"] == proposal.source_ids
    assert event.details["confirmation_id"] == str(confirmation.pk)


def test_only_the_same_subject_type_and_scope_are_merged(world):
    with time_machine.travel(T0, tick=False):
        _memory(world.demo, "Prefers Markdown tables when comparing options.")
        _memory(world.demo, "Prefers Markdown tables when comparing options.", user_id="bob")
        _memory(world.demo, "Prefers Markdown tables when comparing options!", type="user_profile")
        _memory(world.demo, "Prefers Markdown tables when comparing options", level=Level.PROJECT, project="docs")
        _memory(world.acme, "Prefers Markdown tables when comparing options.", user_id="alice")
    assert _run(T0 + timedelta(minutes=1))["proposed"] == 0
    assert not MergeProposal.objects.exists()


def test_the_watermark_skips_subjects_with_no_change_since_the_last_pass(world):
    with time_machine.travel(T0, tick=False):
        _memory(world.demo, "Prefers tables.")
        _memory(world.demo, "Likes short answers.", user_id="bob")
    first = _run(T0 + timedelta(minutes=1), tenant_id=world.demo.pk)
    assert (first["subjects_checked"], first["skipped_not_dirty"]) == (2, 0)

    second = _run(T0 + timedelta(minutes=2), tenant_id=world.demo.pk)
    assert (second["subjects_checked"], second["skipped_not_dirty"]) == (0, 2)

    with time_machine.travel(T0 + timedelta(minutes=3), tick=False):
        _memory(world.demo, "Likes short answers with a TL;DR line first.", user_id="bob")
    third = _run(T0 + timedelta(minutes=4), tenant_id=world.demo.pk)
    assert (third["subjects_checked"], third["skipped_not_dirty"], third["proposed"]) == (1, 1, 1)
    # The proposal moved bob's changed_at; the watermark covers it, so bob is clean again.
    bob = Subject.objects.get(tenant=world.demo, user_id="bob")
    assert bob.consolidated_at >= bob.changed_at
    fourth = _run(T0 + timedelta(minutes=5), tenant_id=world.demo.pk)
    assert (fourth["subjects_checked"], fourth["skipped_not_dirty"]) == (0, 2)


def test_an_accepted_proposal_archives_its_sources(world):
    with time_machine.travel(T0, tick=False):
        sources = [_memory(world.demo, text) for text in SPEC_EXAMPLE]
    _run(T0 + timedelta(minutes=1))
    proposal = MergeProposal.objects.get()
    with time_machine.travel(T0 + timedelta(minutes=2), tick=False):
        confirmation_accept(
            confirmation=Confirmation.objects.get(memory=proposal.memory), actor="user:alice", by_agent=False
        )

    result = _run(T0 + timedelta(minutes=3))

    assert result["applied"] == 1
    proposal.refresh_from_db()
    assert proposal.state == MergeProposal.State.APPLIED
    assert Memory.objects.get(pk=proposal.memory_id).status == Status.ACTIVE
    for source in sources:
        assert Memory.objects.get(pk=source.pk).status == Status.ARCHIVED
        assert AuditEvent.objects.get(event="memory_archived", memory_id=source.pk).reason_code == "merged"
    assert _run(T0 + timedelta(minutes=4))["proposed"] == 0  # the merged memory alone: nothing to merge
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_a_declined_proposal_is_dropped_and_never_proposed_again(world):
    with time_machine.travel(T0, tick=False):
        sources = [_memory(world.demo, text) for text in SPEC_EXAMPLE]
    _run(T0 + timedelta(minutes=1))
    proposal = MergeProposal.objects.get()
    with time_machine.travel(T0 + timedelta(minutes=2), tick=False):
        confirmation_decline(confirmation=Confirmation.objects.get(memory=proposal.memory), actor="user:alice")

    result = _run(T0 + timedelta(minutes=3))

    assert result["dropped"] == 1 and result["proposed"] == 0
    assert result["skipped_already_proposed"] == 1  # alice was dirty again (the decline), same set
    assert all(Memory.objects.get(pk=m.pk).status == Status.ACTIVE for m in sources)
    assert MergeProposal.objects.get().state == MergeProposal.State.DROPPED


def test_memories_in_an_open_proposal_are_not_proposed_twice(world):
    with time_machine.travel(T0, tick=False):
        for text in SPEC_EXAMPLE:
            _memory(world.demo, text)
    _run(T0 + timedelta(minutes=1))
    with time_machine.travel(T0 + timedelta(minutes=2), tick=False):
        _memory(world.demo, "用户喜欢中文回答，带检查清单。")
    result = _run(T0 + timedelta(minutes=3))
    assert (result["subjects_checked"], result["proposed"]) == (1, 0)
    assert MergeProposal.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_pass_that_dies_half_way_leaves_no_proposal_and_no_watermark(world, monkeypatch):
    with time_machine.travel(T0, tick=False):
        for text in SPEC_EXAMPLE:
            _memory(world.demo, text)
    real_create = Confirmation.objects.create

    def dies(**kwargs):
        raise RuntimeError("worker killed")  # after the pending memory was written

    monkeypatch.setattr(consolidate_module.Confirmation.objects, "create", dies)
    with pytest.raises(RuntimeError):
        _run(T0 + timedelta(minutes=1))
    assert not Memory.objects.filter(status=Status.PENDING_CONFIRMATION).exists()
    assert not AuditEvent.objects.filter(event="memory_write_requested").exists()
    assert Subject.objects.get(tenant=world.demo, user_id="alice").consolidated_at is None

    monkeypatch.setattr(consolidate_module.Confirmation.objects, "create", real_create)
    assert _run(T0 + timedelta(minutes=2))["proposed"] == 1
    assert verify_chain(tenant_id=world.demo.pk).ok


def test_a_proposal_quoting_a_since_deleted_memory_is_withdrawn(world):
    with time_machine.travel(T0, tick=False):
        sources = [_memory(world.demo, text) for text in SPEC_EXAMPLE]
    _run(T0 + timedelta(minutes=1))
    proposal = MergeProposal.objects.get()
    with time_machine.travel(T0 + timedelta(minutes=2), tick=False):
        memory_delete(memory=sources[2], actor="user:alice")  # the one whose words the proposal quotes

    result = _run(T0 + timedelta(minutes=3))

    assert result["withdrawn"] == 1 and result["proposed"] == 0
    proposal.refresh_from_db()
    assert proposal.state == MergeProposal.State.DROPPED
    assert Memory.objects.get(pk=proposal.memory_id).status == Status.EXPIRED
    assert Confirmation.objects.get(memory_id=proposal.memory_id).state == Confirmation.State.EXPIRED
    event = AuditEvent.objects.get(event="memory_expired", memory_id=proposal.memory_id)
    assert event.reason_code == "merge_sources_changed"
    assert all(Memory.objects.get(pk=m.pk).status == Status.ACTIVE for m in sources[:2])


def test_nothing_is_proposed_for_a_subject_who_paused_memory(world):
    with time_machine.travel(T0, tick=False):
        for text in SPEC_EXAMPLE:
            _memory(world.demo, text)
        subject_set_paused(tenant_id=world.demo.pk, user_id="alice", paused=True, actor="user:alice")
    paused = _run(T0 + timedelta(minutes=1))
    assert (paused["skipped_paused"], paused["proposed"]) == (1, 0)
    with time_machine.travel(T0 + timedelta(minutes=2), tick=False):
        subject_set_paused(tenant_id=world.demo.pk, user_id="alice", paused=False, actor="user:alice")
    assert _run(T0 + timedelta(minutes=3))["proposed"] == 1
