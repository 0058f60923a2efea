"""Ranking: BM25 over Chinese and English terms, recency, confidence and trust in one documented formula."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memories.read.ranking import (
    DEFAULT_WEIGHTS,
    SOURCE_TRUST,
    bm25_scores,
    in_named_scope,
    project_mention,
    query_plan,
    rank_candidates,
    recency_score,
    semantic_scores,
    standing_rank,
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


def ids(ranking) -> list[str]:
    """The relevant part's ids, best first."""
    return [r.candidate.id for r in ranking.relevant]


def standing_ids(ranking) -> list[str]:
    return [r.candidate.id for r in ranking.standing]


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
    assert ids(ranked) == ["deploy"] and standing_ids(ranked) == []  # a fact that doesn't match: not injected


def test_the_score_is_the_documented_weighted_sum():
    memory = candidate(
        "deploy with kubernetes",
        confidence=0.8,
        source_type="agent_inference",
        updated_at=NOW - timedelta(days=30),
    )
    (ranked,) = rank_candidates([memory], query="kubernetes", now=NOW).relevant
    assert ranked.relevance == 1.0 and ranked.recency == pytest.approx(0.5)
    assert ranked.score == pytest.approx(0.55 * 1.0 + 0.15 * 0.5 + 0.15 * 0.8 + 0.15 * 0.5, abs=1e-6)
    assert DEFAULT_WEIGHTS.relevance + DEFAULT_WEIGHTS.recency + DEFAULT_WEIGHTS.confidence + DEFAULT_WEIGHTS.trust == 1


def test_recency_halves_every_thirty_days_and_never_exceeds_one():
    assert recency_score(NOW, now=NOW, half_life_days=30) == 1.0
    assert recency_score(NOW - timedelta(days=60), now=NOW, half_life_days=30) == pytest.approx(0.25)
    assert recency_score(NOW + timedelta(days=1), now=NOW, half_life_days=30) == 1.0


def test_a_memory_an_answer_used_recently_counts_as_recent():
    """Recency follows the later of the last change and the last citation: used memories stay fresh."""
    old = NOW - timedelta(days=60)
    cited = candidate("deploy with kubernetes on fridays", id="cited", updated_at=old, last_cited_at=NOW)
    unused = candidate("deploy with kubernetes on mondays", id="unused", updated_at=old)
    ranking = rank_candidates([unused, cited], query="deploy kubernetes", now=NOW)
    by_id = {r.candidate.id: r for r in ranking.relevant}
    assert by_id["cited"].recency == 1.0 and by_id["unused"].recency == pytest.approx(0.25)
    assert ids(ranking) == ["cited", "unused"]
    # A citation older than the last change changes nothing.
    stale = candidate("deploy with kubernetes on fridays", id="stale", updated_at=NOW, last_cited_at=old)
    (ranked,) = rank_candidates([stale], query="kubernetes", now=NOW).relevant
    assert ranked.recency == 1.0


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
    assert ids(ranked) == ["old-relevant"] and standing_ids(ranked) == ["new-irrelevant"]


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


def test_only_what_the_query_is_about_is_relevant_and_standing_guidance_is_apart():
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
        candidate("runs kubernetes at home", id="about", type="user_profile"),
    ]
    ranking = rank_candidates(memories, query="kubernetes", now=NOW)
    # What matches first; then what belongs to the session, task and project the request named (the scope
    # filter lets no other through), which a query asked there is most often about.
    assert ids(ranking)[0] == "about" and set(ids(ranking)[1:]) == {"project-rule", "session", "task"}
    assert set(standing_ids(ranking)) == {"pref", "constraint"}
    named = rank_candidates(memories, query="kubernetes", now=NOW, team_named=True)
    assert standing_ids(named)[0] == "team-rule"  # the named team's rule first, then the subject's own
    assert set(standing_ids(named)) == {"team-rule", "pref", "constraint"}
    unnamed = [m for m in memories if m.level in ("user", "tenant", "team")]
    assert ids(rank_candidates(unnamed, query="security ticket", now=NOW)) == ["tenant-rule"]
    assert ids(rank_candidates(unnamed, query="kubernetes", now=NOW)) == ["about"]
    # A standing memory the query is about is ranked as relevant, not repeated as standing.
    about_pref = rank_candidates(unnamed, query="short answers", now=NOW)
    assert ids(about_pref)[0] == "pref" and "pref" not in standing_ids(about_pref)
    assert len(rank_candidates(memories, query="", now=NOW).relevant) == len(memories)


def test_standing_guidance_is_the_same_whatever_the_query():
    memories = [candidate(f"preference {n}", id=f"p{n}", confidence=0.5 + n / 10) for n in range(5)]
    first = standing_ids(rank_candidates(memories, query="kubernetes", now=NOW))
    assert first == standing_ids(rank_candidates(memories, query="postgres", now=NOW))
    assert first == ["p4", "p3", "p2", "p1", "p0"]  # by the query-independent part of the score


def test_standing_is_the_subjects_preferences_and_the_named_scopes_rules():
    assert standing_rank(candidate("x", type="constraint"), team_named=False) == 1
    assert standing_rank(candidate("x", type="user_profile"), team_named=False) is None
    rule = candidate("x", level="team", team="t", type="organization_rule")
    assert standing_rank(rule, team_named=False) is None and standing_rank(rule, team_named=True) == 0
    assert standing_rank(candidate("x", level="tenant", type="organization_rule"), team_named=True) is None


def test_a_weak_match_far_below_the_best_is_not_relevant():
    memories = [
        candidate("deploys dispatch-docs with kubernetes and helm", id="best", type="user_profile"),
        candidate("the dispatch office is in Berlin", id="weak", type="user_profile"),
    ]
    weak_alone = rank_candidates(memories[1:], query="deploy dispatch-docs with kubernetes helm", now=NOW)
    assert ids(weak_alone) == ["weak"]
    assert ids(rank_candidates(memories, query="deploy dispatch-docs with kubernetes helm", now=NOW)) == ["best"]


def test_a_chinese_query_finds_an_english_memory_through_the_dictionary():
    memories = [
        candidate("Our database is PostgreSQL 16", id="db", type="user_profile"),
        candidate("Lives in Berlin", id="city", type="user_profile"),
    ]
    ranking = rank_candidates(memories, query="用的什么数据库？", now=NOW)
    assert ids(ranking) == ["db"]
    assert ranking.relevant[0].matched == ("数据库→databas",)
    # And the reverse: an English query, a Chinese memory.
    chinese = [candidate("数据库用 PostgreSQL", id="db", type="user_profile"), candidate("住在柏林", id="city")]
    assert ids(rank_candidates(chinese, query="Which database?", now=NOW)) == ["db"]


def test_translations_weigh_less_than_the_query_words():
    plan = query_plan("数据库 database")
    weights = dict(zip([t.text for t in plan.terms], plan.weights, strict=True))
    assert weights["数据库"] == 1.0 and weights["databas"] == 1.0  # a translation already in the query stays 1
    plan = query_plan("数据库")
    assert dict(zip([t.text for t in plan.terms], plan.weights, strict=True))["databas"] == DEFAULT_WEIGHTS.translated
    assert query_plan("数据库", translate=False).terms == query_terms("数据库")


def test_a_single_chinese_character_weighs_little():
    plan = query_plan("用 数据库")
    weights = dict(zip([t.text for t in plan.terms], plan.weights, strict=True))
    assert weights["用"] == DEFAULT_WEIGHTS.single_character < weights["数据库"]


def _unit(*values: float) -> np.ndarray:
    vector = np.array(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def test_semantic_scores_measure_the_lead_over_the_requests_mean():
    query = _unit(1, 0, 0)
    vectors = [_unit(1, 0.1, 0), _unit(0, 1, 0), _unit(0, 0, 1), _unit(0, 1, 1), None]
    parts, cosines, strong = semantic_scores(query, vectors, floor=1.5)
    assert parts[0] == 1.0 and parts[1] == parts[2] == 0.0 and parts[4] == 0.0
    # Cosines of the vectors centered on the candidates' mean: what they all share says nothing.
    center = np.mean(vectors[:4], axis=0)
    centered = [(v - center) / np.linalg.norm(v - center) for v in vectors[:4]]
    expected = (query - center) / np.linalg.norm(query - center)
    assert cosines[4] is None and cosines[:4] == pytest.approx([float(v @ expected) for v in centered], abs=1e-6)
    assert strong == [True, False, False, False, False]
    # Without a query vector, or with vectors of another size, nothing semantic happens.
    assert semantic_scores(None, vectors, floor=1.5)[1] == [None] * 5
    assert semantic_scores(_unit(1, 0), vectors, floor=1.5)[1] == [None] * 5


def test_a_memory_close_in_meaning_is_relevant_without_a_shared_word():
    memories = [candidate(f"unrelated fact {n}", id=f"u{n}", type="user_profile") for n in range(6)]
    memories.append(candidate("Likes comparison tables", id="tables", type="user_profile"))
    query = _unit(1, 0, 0)
    vectors = [_unit(0.1, 1, n / 5) for n in range(6)] + [_unit(1, 0.05, 0)]
    ranking = rank_candidates(memories, query="how should results look", now=NOW, query_vector=query, vectors=vectors)
    assert ids(ranking) == ["tables"] and ranking.semantic
    assert ranking.relevant[0].semantic == 1.0 and ranking.relevant[0].lexical == 0.0
    lexical = rank_candidates(memories, query="how should results look", now=NOW)
    assert ids(lexical) == [] and not lexical.semantic


def test_relevance_drops_off_far_below_the_best_even_in_the_named_scope_but_not_for_a_rule():
    task = {"level": "task", "task_id": "t1", "type": "task_state"}
    memories = [
        candidate("Blocker: the vendor has not sent the API key", id="blocker", **task),
        candidate("Next step: write the migration", id="next", **task),
        candidate("Reads the vendor newsletter on Fridays", id="vendor", type="user_profile"),
    ]
    query = "what is the blocker with the vendor api key?"
    # The named task's other memory and the one sharing a single word are far below the best: left out.
    assert ids(rank_candidates(memories, query=query, now=NOW)) == ["blocker"]
    without = rank_candidates(memories, query=query, now=NOW, weights=replace(DEFAULT_WEIGHTS, drop=0.0))
    assert ids(without) == ["blocker", "next", "vendor"]
    # A rule the question is about stays, however far below the best.
    rule = candidate("API keys are never pasted into chat", id="rule", level="tenant", type="organization_rule")
    assert ids(rank_candidates([*memories, rule], query=query, now=NOW)) == ["blocker", "rule"]
    # Asked about the task as a whole ("here"), nothing stands out: every memory of it stays relevant.
    assert set(ids(rank_candidates(memories, query="what is going on here?", now=NOW))) == {"blocker", "next"}


def test_a_memory_naming_the_requested_project_counts_as_one_of_its_own():
    memories = [
        candidate("QA signs off every release", id="tagged", level="project", project="atlas-app", type="project_rule"),
        candidate("Atlas-App keeps its data in SQLite", id="mentions", type="user_profile"),
        candidate("atlas-app-legacy ran on Realm", id="other-slug", type="user_profile"),
        candidate("Likes SQLite for side projects", id="unnamed", type="user_profile"),
    ]
    mention = project_mention("atlas-app")
    assert [in_named_scope(m, mention=mention) for m in memories] == [True, True, False, False]
    assert project_mention("") is None and not in_named_scope(memories[1])
    # Asked "here", the project's memories are what the query is about, tagged or named in the text.
    here = rank_candidates(memories, query="what is going on here?", now=NOW, project="atlas-app")
    assert set(ids(here)) == {"tagged", "mentions"}
    assert ids(rank_candidates(memories, query="what is going on here?", now=NOW)) == ["tagged"]


def _reference(ranking, *, standing: bool) -> list[tuple]:
    """The documented order, written out over every entry: score (rounded), then the newer, then the id."""
    entries = list(ranking.standing if standing else ranking.relevant)

    def key(ranked):
        fresh = max(ranked.candidate.updated_at, ranked.candidate.last_cited_at or ranked.candidate.updated_at)
        rank = 0 if ranked.candidate.type == "organization_rule" else 1
        return (rank if standing else 0, -ranked.score, NOW - fresh, ranked.candidate.id)

    return [key(entry) for entry in sorted(entries, key=key)]


def test_entries_are_made_in_the_documented_order_where_scores_round_alike():
    # Scores a few microseconds apart round alike: the newer memory comes first, then the smaller id,
    # whichever is ahead before rounding.
    rng = np.random.default_rng(7)
    memories = []
    for n in range(120):
        kind = ("user_preference", "constraint", "user_profile", "project_rule", "organization_rule")[n % 5]
        memories.append(
            candidate(
                f"deploy note {n % 3}",
                id=f"{rng.integers(1 << 30):08x}-{n:03d}",
                type=kind,
                level={"project_rule": "project", "organization_rule": "team"}.get(kind, "user"),
                project="atlas" if kind == "project_rule" else "",
                team="ops" if kind == "organization_rule" else "",
                confidence=float(rng.choice([0.8, 0.9, 1.0])),
                updated_at=NOW - timedelta(days=int(rng.integers(3)), microseconds=int(rng.integers(4))),
                last_cited_at=NOW - timedelta(microseconds=int(rng.integers(6))) if n % 7 == 0 else None,
            )
        )
    for query in ("deploy note", "postgres", ""):
        ranking = rank_candidates(memories, query=query, now=NOW, team_named=True)
        for standing in (False, True):
            made = ranking.standing if standing else ranking.relevant
            ordered = [key[-1] for key in _reference(ranking, standing=standing)]
            assert [entry.candidate.id for entry in made] == ordered
            assert len(made) == len(ordered) and [e.candidate.id for e in made[:5]] == ordered[:5]


def test_a_few_candidates_rank_one_at_a_time_as_many_do_as_arrays(monkeypatch):
    rng = np.random.default_rng(11)
    memories = [
        candidate(
            f"{('deploy', 'postgres', '部署', 'atlas-app notes')[n % 4]} memo {n}",
            id=f"m{n:03d}",
            type=("user_preference", "constraint", "user_profile", "project_rule")[n % 4],
            level=("user", "user", "session", "project")[n % 4],
            project="atlas-app" if n % 4 == 3 else "",
            session_id="s1" if n % 4 == 2 else "",
            confidence=float(rng.uniform(0.3, 1.0)),
            source_type=("explicit_user_request", "agent_inference", "tool_result")[n % 3],
            updated_at=NOW - timedelta(hours=float(rng.uniform(0, 2000))),
        )
        for n in range(24)
    ]
    vectors = [rng.standard_normal(8).astype(np.float32) if n % 5 else None for n in range(24)]
    query_vector = rng.standard_normal(8).astype(np.float32)
    for query in ("deploy postgres", "部署", ""):
        for project in ("", "atlas-app"):
            kwargs = {"query": query, "now": NOW, "project": project, "team_named": True}
            ranked = {}
            for few in (0, 1000):
                monkeypatch.setattr("memories.read.ranking.FEW", few)
                ranking = rank_candidates(memories, **kwargs, query_vector=query_vector, vectors=vectors)
                ranked[few] = (list(ranking.relevant), list(ranking.standing), ranking.semantic)
            assert ranked[0] == ranked[1000] and ranked[0][0]
