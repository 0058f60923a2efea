"""The comparison index: a write reads only the memories of its scope it could duplicate or contradict,
reads their aspects from their tags, and decides exactly as if it had parsed every one of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone

from governance.pipeline import dedup
from governance.pipeline.base import Candidate, Scope
from governance.pipeline.lexicons.conflict import VOCABULARY, aspects
from governance.pipeline.screen import screen
from governance.vocabulary import Level, MemoryType, SourceType
from memories import aspect_index
from memories.models import Memory
from memories.services.records import memory_update
from memories.services.write import memory_write
from memories.write_selectors import existing_in_scope

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ALICE = Scope(Level.USER, user_id="alice")


def _texts() -> list[str]:
    """Every memory and candidate text of the decision and read evaluation sets."""
    texts = []
    for name in ("policy_eval.jsonl", "policy_corrections.jsonl", "read_eval_large.jsonl"):
        for line in (FIXTURES / name).read_text("utf-8").splitlines():
            case = json.loads(line)
            for item in (case, case.get("candidate"), *case.get("existing", ())):
                if isinstance(item, dict) and isinstance(item.get("content"), str):
                    texts.append(item["content"])
    return texts


# One surface word per value, English and Chinese, and phrasings that assert or negate it: every
# (aspect, value, polarity) the parser knows, beside the evaluation sets' own texts.
_WORDS = {
    "answer_language": (("Chinese", "中文"), ("English", "英文"), ("Japanese", "日语"), ("French", "法语")),
    "comment_language": (("Chinese", "中文"), ("English", "英文"), ("German", "德语")),
    "answer_length": (("short", "简短"), ("detailed", "详细")),
    "format": (("tables", "表格"), ("bullet lists", "列表"), ("numbered steps", "编号"), ("prose", "段落")),
    "tone": (("formal", "正式"), ("casual", "轻松"), ("funny", "幽默")),
    "region": (("EU", "欧洲"), ("US", "美国"), ("Japan", "日本")),
    "theme": (("dark mode", "深色"), ("light mode", "浅色")),
    "spelling": (("British", "英式"), ("American", "美式")),
    "units": (("metric", "公制"), ("imperial", "英制")),
}
_PHRASES = {
    "answer_language": ("Please answer in {en}.", "Don't answer in {en}.", "回答请用{zh}。", "回答不要用{zh}。"),
    "comment_language": ("Write code comments in {en}.", "Code comments not in {en}.", "注释用{zh}写。"),
    "answer_length": ("Keep answers {en}.", "Answers should not be {en}.", "回答要{zh}。"),
    "format": ("Format answers as {en}.", "Answers without {en}.", "回答用{zh}。", "回答不要用{zh}。"),
    "tone": ("Use a {en} tone in answers.", "Answers not {en} in tone.", "回答语气要{zh}。"),
    "region": ("I am based in the {en}.", "My data residency region is {en}.", "我住在{zh}。"),
    "theme": ("I use {en} for the UI.", "界面用{zh}主题。"),
    "spelling": ("Use {en} spelling in English text.", "英文拼写用{zh}。"),
    "units": ("Give distances in {en} units.", "温度单位用{zh}。"),
}
GENERATED = [
    phrase.format(en=en, zh=zh) for name, words in _WORDS.items() for phrase in _PHRASES[name] for en, zh in words
]
TEXTS = _texts() + GENERATED


def _write(tenant, content: str, *, source=SourceType.EXPLICIT_USER_REQUEST, type_=MemoryType.USER_PREFERENCE):
    return memory_write(
        tenant_id=tenant.pk,
        candidate=Candidate(content=content, scope=ALICE, source_type=source, type=type_),
        actor_label="agent:test",
    )


def _existing(tenant, content: str):
    candidate = Candidate(content=content, scope=ALICE, source_type=SourceType.EXPLICIT_USER_REQUEST)
    from memories.fingerprints import content_fingerprint

    return existing_in_scope(
        tenant_id=tenant.pk,
        scope=ALICE,
        now=timezone.now(),
        fingerprint=content_fingerprint(tenant_id=tenant.pk, content=content),
        aspect_names=candidate.aspects.keys(),
    )


def test_the_texts_cover_every_aspect():
    named = {name for text in TEXTS for name in aspects(screen(text))}
    assert named == {name for name, _ in VOCABULARY}


def test_tags_read_back_exactly_what_the_parser_found(world):
    for text in TEXTS:
        found = aspects(screen(text))
        tags = aspect_index.encode(tenant_id=world.demo.pk, owner="alice", found=found)
        assert aspect_index.decode(tenant_id=world.demo.pk, owner="alice", tags=tags) == found, text
        assert tags.split() == sorted(tags.split())  # in sorted order: a tag's position says nothing


def test_tags_are_keyed_per_subject_say_nothing_in_clear_and_go_with_the_subjects_key(world):
    from vault.datakeys import data_key_destroy

    found = aspects(screen("Please answer in English, in short tables."))
    assert set(found) == {"answer_language", "answer_length", "format"}
    alice = aspect_index.encode(tenant_id=world.demo.pk, owner="alice", found=found)
    bob = aspect_index.encode(tenant_id=world.demo.pk, owner="bob", found=found)
    acme = aspect_index.encode(tenant_id=world.acme.pk, owner="alice", found=found)
    assert len(alice.split()) == 6  # three aspects, a value each
    assert set(alice.split()).isdisjoint(bob.split()) and set(alice.split()).isdisjoint(acme.split())
    for word in ("english", "en", "short", "table", "answer", "format"):
        assert word not in alice.split()
    assert aspect_index.decode(tenant_id=world.demo.pk, owner="bob", tags=alice) == {}
    assert aspect_index.decode(tenant_id=world.acme.pk, owner="alice", tags=alice) == {}
    # Erasure destroys the subject's key: their tags can't be read back by anyone, this process included.
    data_key_destroy(tenant_id=world.demo.pk, owner="alice")
    aspect_index._tags_cache.clear()
    assert aspect_index.decode(tenant_id=world.demo.pk, owner="alice", tags=alice) == {}
    assert aspect_index.name_tags(tenant_id=world.demo.pk, owner="alice", names=["format"]) == []


def test_a_write_reads_only_the_rows_it_could_duplicate_or_contradict(world):
    _write(world.demo, "I prefer short answers.")
    for n in range(40):
        _write(world.demo, f"I work on the ledger-sync service, part {n}.", type_=MemoryType.USER_PROFILE)
    _write(world.demo, "回答请用中文。")
    assert Memory.objects.filter(tenant=world.demo, user_id="alice").count() == 42

    rows = _existing(world.demo, "Give me long, detailed answers.")
    assert [m.aspects for m in rows] == [{"answer_length": aspects(screen("I prefer short answers."))["answer_length"]}]
    assert _existing(world.demo, "I work on the ledger-sync service, part 7.")[0].aspects == {}
    assert _existing(world.demo, "Something with no aspect at all.") == ()
    assert len(_existing(world.demo, "Answer in English and keep it short.")) == 2
    assert _existing(world.acme, "Give me long, detailed answers.") == ()  # another tenant's alice


def test_a_row_whose_text_changed_without_its_index_is_parsed_as_before(world):
    first = _write(world.demo, "I prefer short answers.").memory
    # Changed by a path that didn't index it (a restore, a hand edit): the key no longer names its text.
    Memory.objects.filter(pk=first.pk).update(fingerprint="f" * 64)
    dedup._aspect_cache.clear()
    rows = _existing(world.demo, "Reply in Chinese please.")
    assert [(m.id, m.aspects) for m in rows] == [(str(first.pk), None)]
    assert rows[0].content == "I prefer short answers."  # opened and parsed, as without the index


def test_a_row_indexed_by_another_parser_is_parsed_as_before(world, monkeypatch):
    first = _write(world.demo, "I prefer short answers.").memory
    monkeypatch.setattr(aspect_index, "key_prefix", lambda: "0ther000:")
    rows = _existing(world.demo, "Reply in Chinese please.")
    assert [(m.id, m.aspects) for m in rows] == [(str(first.pk), None)]


def test_an_edit_reindexes_the_new_text(world):
    memory = _write(world.demo, "I prefer short answers.").memory
    memory_update(memory=memory, actor="user:alice", content="I like answers as tables.")
    memory.refresh_from_db()
    assert aspect_index.decode(tenant_id=world.demo.pk, owner="alice", tags=memory.aspect_tags) == aspects(
        screen("I like answers as tables.")
    )
    assert memory.aspect_key == aspect_index.aspect_key(memory.fingerprint)
    dedup._aspect_cache.clear()
    result = _write(world.demo, "Please use prose instead of tables in answers.")
    assert result.decision.conflict_with == str(memory.pk)


def _seed(tenant, stored: list[str]) -> dict[str, int]:
    ids = {}
    for n, text in enumerate(stored):
        memory = _write(tenant, text, type_=(MemoryType.USER_PREFERENCE, MemoryType.USER_PROFILE)[n % 2]).memory
        if memory is not None:
            ids[str(memory.pk)] = n
    return ids


def _decisions(tenant, ids: dict[str, int], candidates: list[str]) -> list[tuple]:
    """Each candidate's decision (as an explicit request and as an inference, as a preference and as a
    correction) against the stored memories, each write rolled back."""
    out = []
    for text in candidates:
        for source in (SourceType.EXPLICIT_USER_REQUEST, SourceType.AGENT_INFERENCE):
            for type_ in (MemoryType.USER_PREFERENCE, MemoryType.CORRECTION):
                dedup._aspect_cache.clear()
                sid = transaction.savepoint()
                d = _write(tenant, text, source=source, type_=type_).decision
                transaction.savepoint_rollback(sid)
                named = (ids.get(str(x), x) for x in (d.conflict_with, d.supersedes, d.duplicate_of))
                out.append((text, source, type_, d.kind, d.reason_code, *named))
    return out


@pytest.mark.parametrize("chunk", range(3))
def test_decisions_are_the_same_with_and_without_the_index(world, monkeypatch, chunk):
    preference_like = [t for t in _texts() if aspects(screen(t))][chunk::3]
    generated = GENERATED[chunk::3]
    stored = preference_like[:40] + generated[: len(generated) // 2]
    candidates = preference_like[40:70] + generated[len(generated) // 2 :] + stored[:: len(stored) // 6]
    ids = _seed(world.demo, stored)
    with_index = _decisions(world.demo, ids, candidates)
    Memory.objects.update(aspect_key="")  # what a database from before the index holds
    monkeypatch.setattr(aspect_index, "key_prefix", lambda: "0ther000:")
    without = _decisions(world.demo, ids, candidates)
    assert with_index == without
    assert sum(1 for row in with_index if row[5] is not None) >= 20  # real contradictions among them
    assert sum(1 for row in with_index if row[7] is not None) >= 8  # and duplicates


def test_the_reindex_job_indexes_what_is_stale_and_nothing_else(world, monkeypatch):
    from memories.lifecycle.reindex import reindex_run, stale

    fresh = _write(world.demo, "I prefer short answers.").memory
    old = _write(world.demo, "回答请用中文。").memory
    other = _write(world.acme, "Keep answers detailed.").memory
    Memory.objects.filter(pk__in=[old.pk, other.pk]).update(aspect_key="", aspect_tags="")
    assert set(stale().values_list("pk", flat=True)) == {old.pk, other.pk}

    assert reindex_run(tenant_id=world.demo.pk).as_dict() == {"job": "reindex", "has_more": False, "indexed": 1}
    old.refresh_from_db()
    assert old.aspect_key == aspect_index.aspect_key(old.fingerprint)
    decoded = aspect_index.decode(tenant_id=world.demo.pk, owner="alice", tags=old.aspect_tags)
    assert decoded == aspects(screen("回答请用中文。"))
    assert set(stale().values_list("pk", flat=True)) == {other.pk}  # acme's waits for its own run

    # A new parser: every row is stale until the job has run again.
    monkeypatch.setattr(aspect_index, "key_prefix", lambda: "0ther000:")
    assert stale().count() == 3
    assert reindex_run().as_dict()["indexed"] == 3
    assert stale().count() == 0
    fresh.refresh_from_db()
    assert fresh.aspect_key.startswith("0ther000:")


def test_the_reindex_job_passes_over_a_row_it_cannot_open(world, monkeypatch):
    from memories.lifecycle.reindex import reindex_run, stale
    from vault.datakeys import data_key_destroy, forget_cached_keys

    lost = _write(world.acme, "Keep answers detailed.").memory
    kept = _write(world.demo, "I prefer short answers.").memory
    Memory.objects.update(aspect_key="", aspect_tags="")
    data_key_destroy(tenant_id=world.acme.pk, owner="alice")  # as if an erasure stopped half way
    forget_cached_keys()
    first = reindex_run(batch_size=1).as_dict()
    assert first["unreadable"] == 1 and first["has_more"]
    assert reindex_run(batch_size=1).as_dict()["indexed"] == 1  # the next batch moves on
    assert stale().count() == 0
    assert Memory.objects.get(pk=lost.pk).aspect_key == aspect_index.UNREADABLE + aspect_index.aspect_key(
        lost.fingerprint
    )
    # A write of that scope still compares with it by opening it, as without the index.
    rows = _existing(world.acme, "Give me short answers.")
    assert [(m.id, m.aspects) for m in rows] == [(str(lost.pk), None)]
    assert Memory.objects.get(pk=kept.pk).aspect_key == aspect_index.aspect_key(kept.fingerprint)
