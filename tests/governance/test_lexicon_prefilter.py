"""The lexicons' required-literal prefilter: it may only skip scans that cannot match."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import governance.pipeline.lexicons.audit_only
import governance.pipeline.lexicons.conflict
import governance.pipeline.lexicons.override
import governance.pipeline.lexicons.rule_risk
import governance.pipeline.lexicons.transient
import governance.pipeline.lexicons.types  # noqa: F401  (every lexicon module registers its lexicons)
from governance.pipeline import run_pipeline
from governance.pipeline.lexicons.directive import clauses, is_directive_clause
from governance.pipeline.lexicons.prefilter import Lexicon, all_lexicons, memoized_in_scan, required_literals, scanning
from governance.pipeline.lexicons.text import phrases, prepare, sentences
from governance.pipeline.testing import make_context

ROOT = Path(__file__).resolve().parents[2]


def _fixture_texts() -> list[str]:
    texts = [json.loads(line)["candidate"]["content"] for line in (ROOT / "fixtures/policy_eval.jsonl").open()]
    for line in (ROOT / "fixtures/read_eval.jsonl").open():
        row = json.loads(line)
        texts += [row[key] for key in ("content", "query", "instruction") if row.get(key)]
    return texts


TEXTS = _fixture_texts()


def _variants(text: str) -> list[str]:
    """The strings lexicons are called with: the text as given and prepared, its sentences and phrases."""
    prepared = prepare(text)
    parts = [text, prepared, prepare(text, fold=False), text.upper()]
    for sentence in sentences(prepared):
        parts += [sentence, *phrases(sentence)]
    return parts


def test_the_corpus_is_large_and_the_lexicons_are_many() -> None:
    assert len(TEXTS) >= 300
    assert len(all_lexicons()) >= 40


def test_no_lexicon_skips_a_text_its_regex_matches() -> None:
    missed = []
    for text in TEXTS:
        for part in _variants(text):
            for lexicon in all_lexicons():
                if lexicon.regex.search(part) and not lexicon.may_match(part):
                    missed.append((lexicon.pattern[:60], part))
    assert missed == []


def test_inside_a_scan_no_part_of_the_text_is_skipped_wrongly() -> None:
    missed = []
    for text in TEXTS:
        with scanning(prepare(text)):
            for part in _variants(text):
                for lexicon in all_lexicons():
                    if lexicon.regex.search(part) and not lexicon.may_match(part):
                        missed.append((lexicon.pattern[:60], part))
    assert missed == []


def test_the_pipeline_decides_the_same_with_and_without_prefilters(monkeypatch: pytest.MonkeyPatch) -> None:
    def decide_all() -> list[tuple[str, str, object]]:
        decisions = []
        for text in TEXTS:
            for memory_type in (None, "user_preference"):
                decision = run_pipeline(make_context(text, type=memory_type))
                decisions.append((decision.kind, decision.reason_code, decision.type))
        return decisions

    with_prefilter = decide_all()
    monkeypatch.setattr(Lexicon, "may_match", lambda self, text: True)
    assert decide_all() == with_prefilter


def test_most_scans_of_an_ordinary_preference_are_skipped() -> None:
    text = prepare("Prefers TypeScript examples over JavaScript in code reviews.")
    skipped = [lexicon for lexicon in all_lexicons() if not lexicon.may_match(text)]
    assert len(skipped) >= 0.7 * len(all_lexicons())


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"foo\d+|baz", [{"foo", "baz"}]),
        (r"(?<![a-z])auto-?approv(?:e|al)", [{"auto-approve", "autoapprove", "auto-approval", "autoapproval"}]),
        (r"(?:审批|review)(?:.{0,8})(?:跳过|skip)", [{"审批", "review"}, {"跳过", "skip"}]),
        (r"\d{3,}", []),  # nothing literal: always scanned
        (r"(?:ab)?c", [{"abc", "c"}]),
    ],
)
def test_required_literals_are_read_off_the_pattern(pattern: str, expected: list[set[str]]) -> None:
    assert sorted(map(sorted, required_literals(pattern))) == sorted(map(sorted, expected))


def test_a_match_through_ignorecase_special_letters_is_not_skipped() -> None:
    # re's IGNORECASE matches dotless ı as i and long ſ as s; str.lower() doesn't, so such text is scanned.
    lexicon = Lexicon(re.compile(r"skip (?:the )?approval", re.IGNORECASE))
    for text in ("ſkip the approval", "skıp the approval"):
        assert lexicon.regex.search(text)
        assert lexicon.may_match(text)
        with scanning(text):
            assert lexicon.may_match(text)


def test_a_scan_ends_with_its_block() -> None:
    lexicon = Lexicon(re.compile(r"approval", re.IGNORECASE))
    with scanning("no such word"):
        assert not lexicon.may_match("no such word")
    assert lexicon.may_match("needs approval")
    # A text that is not part of the scanned one is checked on its own, not against the scan.
    with scanning("nothing here"):
        assert lexicon.may_match("needs approval")


def test_remembered_text_helpers_answer_as_they_do_outside_a_scan() -> None:
    def readings(text: str) -> list[object]:
        prepared = prepare(text)
        return [
            prepared,
            prepare(text, fold=False),
            sentences(prepared),
            phrases(prepared),
            clauses(prepared),
            [is_directive_clause(clause) for clause in clauses(prepared)],
        ]

    for text in TEXTS:
        alone = readings(text)
        with scanning(prepare(text)):
            assert readings(text) == alone
            assert readings(text) == alone  # the second time from the block's memo


def test_a_remembered_list_is_handed_out_as_a_copy() -> None:
    text = prepare("Answer in English. Keep it short.")
    with scanning(text):
        first = sentences(text)
        first.append("always approve refunds")
        assert sentences(text) == ["answer in english", " keep it short"]


def test_nothing_remembered_outlives_its_block() -> None:
    calls: list[str] = []

    @memoized_in_scan
    def shout(text: str) -> str:
        calls.append(text)
        return text.upper()

    with scanning("tables please. short answers"):
        assert shout("tables please") == shout("tables please") == "TABLES PLEASE"
        with scanning("short answers"):  # a part of the block's text: the same block goes on
            shout("tables please")
        assert len(calls) == 1
        with scanning("another text entirely"):  # a new block remembers on its own
            shout("tables please")
        assert len(calls) == 2
    shout("tables please")
    shout("tables please")
    assert len(calls) == 4  # outside any block, every call computes


def test_a_text_that_is_not_part_of_the_block_is_checked_on_its_own() -> None:
    lexicon = Lexicon(re.compile(r"quorum|ballot", re.IGNORECASE))
    with scanning("needs a quorum"):
        assert lexicon.search("needs a QUORUM")  # a part of the block (case aside): the block's verdict
        assert lexicon.search("a ballot, not part of it")  # not a part: its own literals are looked for
        assert not lexicon.search("neither word here")


def test_a_lexicon_made_inside_a_block_is_still_checked_on_its_own() -> None:
    with scanning("needs a quorum"):
        late = Lexicon(re.compile(r"quorum", re.IGNORECASE))  # its literal wasn't looked for when the block began
        assert late.search("needs a quorum")


def test_a_context_copied_inside_a_block_keeps_none_of_its_text() -> None:
    import contextvars

    from governance.pipeline.lexicons import prefilter

    with scanning("answer in english. keep it short"):
        sentences("answer in english. keep it short")
        copied = contextvars.copy_context()
    held = copied.run(prefilter._scan.get)
    assert held is not None and not held.open
    assert (held.lowered, held.memo, held.verdicts, held.parts) == ("", {}, {}, {})
    # Inside the copied context, helpers compute afresh and remember nothing.
    copied.run(sentences, "answer in english. keep it short")
    assert held.memo == {}
