"""An index entry counts a query term exactly as the text would, or says it can't (and the text is read)."""

from __future__ import annotations

import random

import pytest

from memories.read.features import GRAM_MAX, name_key, term_probe, text_features
from memories.read.ranking import project_mention
from memories.read.segment import QueryTerm, query_matcher, query_terms

WORDS = ["deploy", "deploys", "deployed", "ledger-sync", "Argo", "CD", "tables", "table", "answers", "K8s", "v2"]
CHINESE = ["部署", "哈哈", "哈", "回答", "表格", "用表格回答", "账本同步", "一一", "卡拉OK", "数据库迁移"]


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pieces = WORDS + CHINESE + [" ", "，", "。", "_", "-", "哈哈哈", "ledger-sync-v2", "İstanbul", "\u212a8s"]
    return [
        "".join(rng.choice(pieces) + rng.choice(["", " "]) for _ in range(rng.randint(1, 14))) for _ in range(count)
    ]


TERMS = (
    *query_terms("deploy tables answers argo k8s"),
    *(QueryTerm(text, cjk=True) for text in ["部署", "哈哈", "哈", "一一", "用表格回答", "卡拉ok", "数据库迁移"]),
)


@pytest.mark.parametrize("seed", range(5))
def test_exact_terms_count_as_the_text_and_the_others_are_probed(seed: int) -> None:
    matcher = query_matcher(TERMS)
    exact_seen = probed_seen = 0
    for text in _texts(200, seed):
        features = text_features(text)
        counts, length = matcher.frequencies(text)
        assert features.length == length
        for term, count in zip(TERMS, counts, strict=True):
            probe = term_probe(term)
            if probe.exact:
                assert features.counts.get(probe.key, 0) == count, (text, term)
                exact_seen += count > 0
            elif count and probe.key is not None:
                assert features.counts.get(probe.key, 0) > 0, (text, term)  # the text is read, so it is found
                probed_seen += 1
    assert exact_seen and probed_seen


def test_which_terms_the_index_counts_exactly() -> None:
    assert term_probe(QueryTerm("部署", cjk=True)).exact
    assert term_probe(QueryTerm("deploy", cjk=False)).exact
    assert not term_probe(QueryTerm("哈哈", cjk=True)).exact  # overlaps itself: "哈哈哈" holds it once
    assert not term_probe(QueryTerm("数据库迁移", cjk=True)).exact  # longer than GRAM_MAX
    assert len("数据库迁移") > GRAM_MAX
    assert not term_probe(QueryTerm("卡拉ok", cjk=True)).exact  # not only Chinese characters


@pytest.mark.parametrize("seed", range(3))
def test_a_project_named_in_a_text_is_found_by_its_name_key(seed: int) -> None:
    for slug in ["ledger-sync", "k8s", "argo"]:
        mention = project_mention(slug)
        assert mention is not None
        for text in _texts(300, seed):
            features = text_features(text)
            if not features.mention_exact:
                assert any(char in text for char in "\u0130\u0131\u017f\u212a")
                continue
            assert (name_key(slug) in features.counts) == mention.found_in(text), (slug, text)


def test_a_case_folding_character_makes_the_mention_inexact() -> None:
    assert not text_features("\u212a8s upgrade").mention_exact
    assert text_features("k8s upgrade, 部署").mention_exact
