"""Stage 7 (rule 12): duplicates, contradictions, and who may supersede whom."""

from __future__ import annotations

from dataclasses import replace

import pytest

from governance.pipeline.base import ExistingMemory, WriteContext
from governance.pipeline.dedup import DedupStage
from governance.pipeline.lexicons.conflict import find_contradiction
from governance.pipeline.testing import make_context, make_existing, make_scope
from governance.vocabulary import DecisionKind, Level, MemoryType, SourceType

stage = DedupStage()


def provisional(
    content: str,
    *existing: object,
    memory_type: MemoryType = MemoryType.USER_PREFERENCE,
    kind: DecisionKind = DecisionKind.SAVE,
    confirm_by: str | None = None,
    **kwargs: object,
) -> WriteContext:
    ctx = make_context(content, existing=existing, **kwargs)  # type: ignore[arg-type]
    return ctx.with_(type=memory_type, provisional=kind, provisional_reason=("x", "x"), confirm_by=confirm_by)


def test_the_same_normalized_content_is_a_duplicate() -> None:
    ctx = stage.run(provisional("记住我喜欢回答里多用表格", make_existing("记住我喜欢回答里多用表格。", id="m-7")))
    assert ctx.provisional == DecisionKind.SAVE
    assert ctx.duplicate_of == "m-7"
    assert ctx.provisional_reason[0] == "duplicate"


def test_a_duplicate_needs_no_confirmation() -> None:
    ctx = provisional(
        "I like tables.",
        make_existing("i like tables"),
        kind=DecisionKind.ASK_CONFIRMATION,
        confirm_by="user",
        source_type=SourceType.USER_STATEMENT,
    )
    out = stage.run(ctx)
    assert out.provisional == DecisionKind.SAVE
    assert out.confirm_by is None


def test_the_same_content_in_another_scope_is_not_a_duplicate() -> None:
    other_project = make_existing(
        "Run make check before committing.",
        type=MemoryType.PROJECT_RULE,
        scope=make_scope(Level.PROJECT, project="dispatch-docs"),
    )
    ctx = provisional(
        "Run make check before committing.",
        other_project,
        memory_type=MemoryType.PROJECT_RULE,
        scope=make_scope(Level.PROJECT, project="ledger-api"),
    )
    assert stage.run(ctx).duplicate_of is None


def test_a_session_memory_is_no_duplicate_of_a_user_memory() -> None:
    ctx = provisional("回答用英文。", make_existing("回答用英文。", level=Level.SESSION))
    assert stage.run(ctx).duplicate_of is None


def test_an_explicit_correction_supersedes_the_contradicted_preference() -> None:
    ctx = provisional(
        "Correction: I want long answers now, not short ones.",
        make_existing("User prefers short answers.", id="m-3"),
        memory_type=MemoryType.CORRECTION,
    )
    out = stage.run(ctx)
    assert out.provisional == DecisionKind.SAVE
    assert out.supersedes == "m-3"
    assert out.conflict_with == "m-3"
    assert out.provisional_reason[0] == "supersedes"


def test_an_inference_never_overrides_a_confirmed_memory() -> None:
    ctx = provisional(
        "The user probably wants answers in Japanese.",
        make_existing("Answers in Chinese.", id="m-4", source_type=SourceType.EXPLICIT_USER_CONFIRMATION),
        kind=DecisionKind.ASK_CONFIRMATION,
        confirm_by="user",
        source_type=SourceType.AGENT_INFERENCE,
        confidence=0.8,
    )
    out = stage.run(ctx)
    assert out.provisional == DecisionKind.ASK_CONFIRMATION
    assert out.confirm_by == "user"
    assert out.conflict_with == "m-4"
    assert out.supersedes is None
    assert out.provisional_reason[0] == "conflict_needs_confirmation"


def test_a_statement_that_contradicts_asks_too() -> None:
    ctx = provisional("以后回答请用英文。", make_existing("以后用中文回答。"), source_type=SourceType.USER_STATEMENT)
    assert stage.run(ctx).provisional == DecisionKind.ASK_CONFIRMATION


def test_types_that_are_not_comparable_do_not_conflict() -> None:
    ctx = provisional("Answers in Japanese.", make_existing("Answers in English.", type=MemoryType.CONSTRAINT))
    assert stage.run(ctx).conflict_with is None


def test_a_pending_admin_approval_stays_pending_on_conflict() -> None:
    existing = make_existing("Answers in English for everyone.", type=MemoryType.ORGANIZATION_RULE, level=Level.TENANT)
    ctx = provisional(
        "Answers in Chinese for everyone.",
        existing,
        memory_type=MemoryType.ORGANIZATION_RULE,
        kind=DecisionKind.ASK_CONFIRMATION,
        confirm_by="admin",
        level=Level.TENANT,
    )
    out = stage.run(ctx)
    assert (out.provisional, out.confirm_by, out.conflict_with) == (DecisionKind.ASK_CONFIRMATION, "admin", "m-1")
    assert out.supersedes is None


def test_no_existing_memory_changes_nothing() -> None:
    ctx = provisional("I like tables.")
    assert stage.run(ctx) == ctx


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Correction: I want long answers now, not short ones.", "Prefers short answers."),
        ("不要用表格了，用列表。", "记住我喜欢回答里多用表格。"),
        ("回答请用英文。", "以后用中文回答。"),
        ("Use a casual tone.", "Keep the tone formal."),
        ("My region is EU.", "The user is based in the US."),
        ("Switch to light mode.", "I like dark mode."),
        ("请详细一点解释，不要太简短。", "回答尽量简短。"),
        ("Answer in Chinese but code comments in English.", "Answer in English."),
        ("Use prose instead of tables.", "I like tables."),
    ],
)
def test_the_detector_finds_contradictions(new: str, old: str) -> None:
    assert find_contradiction(new, old) is not None


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("以后代码注释用英文写。", "以后用中文回答。"),  # another aspect
        ("I like tables and short answers.", "Prefers short answers."),  # agrees
        ("Remember I like the summary at the very top.", "Prefers dark-mode screenshots."),
        ("Answer in Chinese but code comments in English.", "Code comments in English please."),
        ("Let us review the PR.", "The user is based in the EU."),  # "us" is no region
        ("I work on the English-learning app.", "Answers in Chinese."),  # no answer-language context
    ],
)
def test_the_detector_leaves_compatible_memories_alone(new: str, old: str) -> None:
    assert find_contradiction(new, old) is None


def test_a_memory_edited_under_the_same_id_is_compared_by_its_new_text() -> None:
    # The stage caches each stored memory's parsed aspects by (id, version); an edit is a new version.
    new = "I prefer long, detailed answers."
    first = stage.run(provisional(new, make_existing("I prefer short answers.", id="m-9")))
    assert first.conflict_with == "m-9"
    second = stage.run(provisional(new, make_existing("I prefer long answers.", id="m-9", version=2)))
    assert second.conflict_with is None


def _unopenable(memory: ExistingMemory) -> ExistingMemory:
    def refuse() -> str:
        raise AssertionError("the stage opened a memory it did not need")

    return replace(memory, load_content=refuse)


def test_a_duplicate_is_found_without_opening_any_memory() -> None:
    existing = _unopenable(make_existing("Prefers tables in answers", id="m-10"))
    out = stage.run(provisional("prefers tables in answers!", existing))
    assert out.duplicate_of == "m-10"


def test_a_memory_already_parsed_is_not_opened_again() -> None:
    old = make_existing("I prefer short answers.", id="m-11")
    assert stage.run(provisional("I prefer long, detailed answers.", old)).conflict_with == "m-11"
    again = stage.run(provisional("I want very detailed answers.", _unopenable(old)))
    assert again.conflict_with == "m-11"
