"""Query terms counted in memories: the shortcut (only words that begin with a term's probe are stemmed) counts
what a plain walk counts."""

from __future__ import annotations

import random

from memories.read.segment import (
    CJK_CHAR,
    CJK_CHARS_PER_WORD,
    LATIN_WORD,
    query_matcher,
    query_terms,
    stem,
    stem_probe,
)

WORDS = str.split(
    """deploy deploys deployed deploying deployment bodies body study studies shipped shipping ship tables table
    updating speed speeds users cases ies toys ties dies eyes boxes buses glasses Straße café CAFÉ naïve İstanbul
    部署 步骤 检查 清单 中文 简短 说明 ・ ゛ kubernetes Kubernetes dispatch-docs docs 2026 v2 x_y the"""
)


def walked(query: str, text: str) -> tuple[list[int], float]:
    """Each term's count found by stemming every word and counting every Chinese term."""
    terms = query_terms(query)
    lowered = text.lower()
    words = LATIN_WORD.findall(lowered)
    counts = [0] * len(terms)
    for index, term in enumerate(terms):
        if term.cjk:
            counts[index] = lowered.count(term.text)
        else:
            counts[index] = sum(1 for word in words if stem(word) == term.text)
    return counts, len(words) + len(CJK_CHAR.findall(lowered)) / CJK_CHARS_PER_WORD


def test_every_word_that_stems_to_a_term_begins_with_its_probe():
    for word in WORDS:
        assert word.lower().startswith(stem_probe(stem(word.lower())))


def test_frequencies_match_a_word_by_word_count():
    rng = random.Random(11)
    for _ in range(300):
        query = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))
        matcher = query_matcher(query_terms(query))
        for _ in range(20):
            text = rng.choice([" ", "", "，", "-"]).join(rng.choice(WORDS) for _ in range(rng.randint(0, 10)))
            text = text.upper() if rng.random() < 0.3 else text
            assert matcher.frequencies(text) == walked(query, text), (query, text)
