"""Deterministic similarity for consolidation: character bigrams of the normalized content.

Character bigrams work the same for Chinese (no word boundaries) and English, need no model and no
network, and give the same answer on every run. Two measures over the bigram sets:

- Jaccard |A∩B| / |A∪B| — the two say mostly the same thing;
- overlap |A∩B| / min(|A|,|B|) — the shorter one is (nearly) contained in the longer one, e.g.
  "用户喜欢中文回答" inside "用户喜欢中文、分步骤、带检查清单的回答" (overlap 0.86, Jaccard 0.35).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from governance.pipeline.normalize import normalize_content

JACCARD_MIN = 0.5
OVERLAP_MIN = 0.75
# Below this many bigrams a high overlap is coincidence ("likes tea" inside anything about tea).
OVERLAP_MIN_BIGRAMS = 5
# A member whose bigrams are this much covered by the merged text adds nothing new to it.
COVERED_MIN = 0.75


def bigrams(text: str) -> frozenset[str]:
    norm = normalize_content(text)
    if len(norm) < 2:
        return frozenset({norm}) if norm else frozenset()
    return frozenset(norm[i : i + 2] for i in range(len(norm) - 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    smaller = min(len(a), len(b))
    return len(a & b) / smaller if smaller else 0.0


def mergeable(a: frozenset[str], b: frozenset[str]) -> bool:
    if jaccard(a, b) >= JACCARD_MIN:
        return True
    return min(len(a), len(b)) >= OVERLAP_MIN_BIGRAMS and overlap(a, b) >= OVERLAP_MIN


@dataclass(frozen=True)
class Item:
    key: str  # a stable id (the memory id)
    text: str
    grams: frozenset[str]


def clusters(items: Sequence[Item]) -> list[list[Item]]:
    """Groups of two or more items linked by ``mergeable`` pairs (transitively), in input order."""
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if mergeable(items[i].grams, items[j].grams):
                ri, rj = root(i), root(j)
                if ri != rj:
                    parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[Item]] = {}
    for i, item in enumerate(items):
        groups.setdefault(root(i), []).append(item)
    return [group for group in groups.values() if len(group) > 1]


def merged_text(members: Sequence[Item]) -> str:
    """The richest member, plus each other member that says something it doesn't (in input order).

    Nothing is paraphrased: the proposal is made of the person's own sentences, so accepting it
    can't put words in their mouth.
    """
    base = max(members, key=lambda item: len(item.grams))  # first of the longest on ties
    parts, covered = [base.text.strip()], set(base.grams)
    for item in members:
        if item is base or not item.grams:
            continue
        if len(item.grams & covered) / len(item.grams) < COVERED_MIN:
            parts.append(item.text.strip())
            covered |= item.grams
    return " ".join(parts)
