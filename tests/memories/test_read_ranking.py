"""Ranking: BM25 over Chinese and English terms, recency, confidence and trust in one documented formula."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from memories.read.ranking import (
    DEFAULT_WEIGHTS,
    SOURCE_TRUST,
    bm25_scores,
    needs_relevance,
    rank_candidates,
    recency_score,
)
from memories.read.scope import ContextCandidate
from memories.read.segment import QueryTerm, query_terms, stem

NOW = datetime(2026, 7, 7, 10, 0, tzinfo=UTC)


def candidate(content: str, **fields) -> ContextCandidate:
    values = {
        "id": fields.pop("id", content[:8]),
        "level": "user",
        "type": "user_preference",
        "content": content,
        "source_type": "explicit_user_request",
        "source_message_id": "",
        "confidence": 1.0,
        "sensitivity": "low",
        "team": "",
        "project": "",
        "session_id": "",
        "task_id": "",
        "updated_at": NOW,
    }
    values.update(fields)
    return ContextCandidate(**values)


def ids(ranked) -> list[str]:
    return [r.candidate.id for r in ranked]


def test_english_terms_are_stemmed_and_stopwords_dropped():
    assert [t.text for t in query_terms("How should I deploy the dispatch docs?")] == ["deploy", "dispatch", "doc"]
    assert {stem(w) for w in ("deploy", "deploys", "deployed", "deploying", "deployment")} == {"deploy"}
    assert stem("tables") == stem("table") and stem("policies") == stem("policy")
    assert stem("shipping") == stem("ship") and stem("rolling") == "roll"


def test_chinese_is_segmented_by_jieba_without_stopwords():
    terms = [t.text for t in query_terms("请用中文简短说明部署步骤")]
    assert {"中文", "简短", "部署", "步骤"} <= set(terms)
    assert "请" not in terms and all(t.cjk for t in query_terms("部署步骤"))


def test_mixed_script_queries_keep_both():
    terms = query_terms("dispatch-docs 的部署")
    assert QueryTerm("dispatch", cjk=False) in terms and QueryTerm("部署", cjk=True) in terms


def test_bm25_prefers_the_document_with_the_rarer_term():
    terms = query_terms("kubernetes deploy")
    texts = ["deploy with kubernetes", "deploy by hand", "deploy on friday", "likes tables"]
    scores = bm25_scores(terms, texts, k1=1.2, b=0.75)
    assert scores[0] > scores[1] == scores[2] > scores[3] == 0


def test_bm25_matches_the_okapi_formula():
    terms = query_terms("tables")
    texts = ["tables tables", "lists"]
    (score, zero) = bm25_scores(terms, texts, k1=1.2, b=0.75)
    idf = math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    average = (2 + 1) / 2
    expected = idf * 2 * 2.2 / (2 + 1.2 * (1 - 0.75 + 0.75 * 2 / average))
    assert score == pytest.approx(expected) and zero == 0


def test_bm25_normalizes_for_length():
    terms = query_terms("tables")
    short, long = bm25_scores(terms, ["tables", "tables and lists and notes and code and more words"], k1=1.2, b=0.75)
    assert short > long


def test_a_chinese_query_finds_a_chinese_memory_by_its_words():
    ranked = rank_candidates(
        [
            candidate("回答尽量简短，不要长篇开场白", id="short", type="user_profile"),
            candidate("部署用 kubernetes 和 helm", id="deploy", type="user_profile"),
        ],
        query="部署步骤是什么",
        now=NOW,
    )
    assert ids(ranked) == ["deploy"]  # the other is a fact that doesn't match: not injected


def test_the_score_is_the_documented_weighted_sum():
    memory = candidate(
        "deploy with kubernetes",
        confidence=0.8,
        source_type="agent_inference",
        updated_at=NOW - timedelta(days=30),
    )
    (ranked,) = rank_candidates([memory], query="kubernetes", now=NOW)
    assert ranked.relevance == 1.0 and ranked.recency == pytest.approx(0.5)
    assert ranked.score == pytest.approx(0.55 * 1.0 + 0.15 * 0.5 + 0.15 * 0.8 + 0.15 * 0.5, abs=1e-6)
    assert DEFAULT_WEIGHTS.relevance + DEFAULT_WEIGHTS.recency + DEFAULT_WEIGHTS.confidence + DEFAULT_WEIGHTS.trust == 1


def test_recency_halves_every_thirty_days_and_never_exceeds_one():
    assert recency_score(NOW, now=NOW, half_life_days=30) == 1.0
    assert recency_score(NOW - timedelta(days=60), now=NOW, half_life_days=30) == pytest.approx(0.25)
    assert recency_score(NOW + timedelta(days=1), now=NOW, half_life_days=30) == 1.0


def test_trust_orders_sources():
    assert SOURCE_TRUST["explicit_user_request"] > SOURCE_TRUST["user_statement"] > SOURCE_TRUST["agent_inference"]
    assert SOURCE_TRUST["agent_inference"] > SOURCE_TRUST["tool_result"] > SOURCE_TRUST["web_content"]
    ranked = rank_candidates(
        [
            candidate("prefers tables", id="inferred", source_type="agent_inference"),
            candidate("prefers tables", id="asked", source_type="explicit_user_request"),
        ],
        query="",
        now=NOW,
    )
    assert ids(ranked) == ["asked", "inferred"]


def test_relevance_outweighs_recency_and_confidence():
    ranked = rank_candidates(
        [
            candidate("likes tables", id="new-irrelevant"),
            candidate(
                "deploys with kubernetes", id="old-relevant", confidence=0.6, updated_at=NOW - timedelta(days=90)
            ),
        ],
        query="kubernetes",
        now=NOW,
    )
    assert ids(ranked) == ["old-relevant", "new-irrelevant"]


def test_without_a_query_newer_and_surer_memories_come_first():
    ranked = rank_candidates(
        [
            candidate("a", id="old", updated_at=NOW - timedelta(days=60)),
            candidate("b", id="unsure", confidence=0.5),
            candidate("c", id="new"),
        ],
        query="  ",
        now=NOW,
    )
    assert ids(ranked) == ["new", "unsure", "old"]


def test_ties_go_to_the_newer_memory():
    ranked = rank_candidates(
        [candidate("x", id="older", updated_at=NOW - timedelta(seconds=1)), candidate("x", id="newer")],
        query="",
        now=NOW,
    )
    assert ids(ranked) == ["newer", "older"]


def test_facts_and_organization_rules_need_the_query_to_be_about_them():
    memories = [
        candidate("prefers short answers", id="pref"),
        candidate("never deploy on fridays", id="constraint", type="constraint"),
        candidate("works at acme", id="profile", type="user_profile"),
        candidate("security answers cite the ticket", id="tenant-rule", level="tenant", type="organization_rule"),
        candidate(
            "every deployment needs a rollback plan", id="team-rule", level="team", team="x", type="organization_rule"
        ),
        candidate("push to origin/main", id="project-rule", level="project", project="docs", type="project_rule"),
        candidate("comparing caches", id="session", level="session", session_id="s1", type="temporary_context"),
        candidate("step 2 of 4", id="task", level="task", task_id="t1", type="task_state"),
    ]
    ranked = rank_candidates(memories, query="kubernetes", now=NOW)
    assert set(ids(ranked)) == {"pref", "constraint", "project-rule", "session", "task"}
    assert set(ids(rank_candidates(memories, query="kubernetes", now=NOW, team_named=True))) == {
        "pref",
        "constraint",
        "project-rule",
        "session",
        "task",
        "team-rule",
    }
    assert "tenant-rule" in ids(rank_candidates(memories, query="security ticket", now=NOW))
    assert len(rank_candidates(memories, query="", now=NOW)) == len(memories)


def test_needs_relevance_for_a_project_tagged_user_memory():
    assert not needs_relevance(candidate("x", type="user_profile", project="docs"), team_named=False)
    assert needs_relevance(candidate("x", type="user_profile"), team_named=False)
