"""Turn-level recall over long conversations, through the REST API (``manage.py evaluate_conversations``).

A conversation file is JSONL, one conversation per line::

    {"id": "en01", "language": "en", "style": "two_people", "split": "dev", "speakers": ["Nadia", "Tomas"],
     "subject": "Nadia",
     "sessions": [{"session": 1, "date": "2026-01-14",
                   "turns": [{"id": "en01-s1-t1", "speaker": "Nadia", "text": "…"}, …]}, …],
     "questions": [{"id": "en01-q01", "question": "…", "answer": "…", "evidence": ["en01-s3-t7"],
                    "category": "single_hop"}, …]}

What it does is what an agent that keeps a conversation in memgov does, through the same HTTP requests:

1. every turn is written with ``POST /api/v1/memories/write`` as one memory of the conversation's subject
   (``"<speaker>: <text>"``, level ``user``, source ``explicit_user_request``, the turn's id as
   ``source_message_id``), so each goes through the write pipeline like any other candidate;
2. every question is asked with ``POST /api/v1/memories/context`` (``top_k`` 10 unless told, no standing
   block), and the items that come back are mapped to the turns they were written from.

Turn-level ``recall@k`` is the share of a question's evidence turns among the items returned, averaged over
questions; ``hit@k`` the share of questions with at least one evidence turn returned. Beside memgov's figure,
the same run ranks the same turns with plain BM25 (``bm25s``; English words and jieba's Chinese words,
English stopwords dropped), over every turn and over the turns memgov stored: the first is what a plain
search over the whole conversation gets, the second separates what the gate kept out from how the kept
turns were ranked. The write decisions are counted too: a turn the gate refused (and why) cannot be found.

Everything runs in a tenant with a fresh slug, inside one transaction that is rolled back.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import Any

import bm25s
import jieba
from bm25s.stopwords import STOPWORDS_EN
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings

from governance.services.tenancy import agent_key_create, tenant_create

ACTOR = "system:evaluate_conversations"
HOST = "conversation-eval.invalid"
WRITE_URL = "/api/v1/memories/write"
CONTEXT_URL = "/api/v1/memories/context"


class ConversationFileError(ValueError):
    """A conversation file is malformed; the message names the line and what is wrong."""


@dataclass(frozen=True)
class Turn:
    id: str
    speaker: str
    text: str

    @property
    def content(self) -> str:
        return f"{self.speaker}: {self.text}"


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    evidence: tuple[str, ...]
    category: str


@dataclass(frozen=True)
class Conversation:
    id: str
    language: str
    style: str
    split: str
    subject: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]


def load_conversations(paths: list[Path]) -> list[Conversation]:
    conversations: list[Conversation] = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                conversations.append(_conversation(json.loads(line), f"{path.name}:{number}"))
    return conversations


def _conversation(item: dict[str, Any], where: str) -> Conversation:
    try:
        turns = tuple(
            Turn(turn["id"], turn["speaker"], turn["text"]) for session in item["sessions"] for turn in session["turns"]
        )
        questions = tuple(
            Question(q["id"], q["question"], tuple(q["evidence"]), q.get("category", "")) for q in item["questions"]
        )
        conversation = Conversation(
            id=item["id"],
            language=item.get("language", ""),
            style=item.get("style", ""),
            split=item.get("split", ""),
            subject=item["subject"],
            turns=turns,
            questions=questions,
        )
    except (KeyError, TypeError) as exc:
        raise ConversationFileError(f"{where}: missing or malformed {exc}") from None
    known = {turn.id for turn in turns}
    for question in questions:
        unknown = set(question.evidence) - known
        if unknown or not question.evidence:
            raise ConversationFileError(f"{where}: question {question.id} has unknown or no evidence {sorted(unknown)}")
    return conversation


@dataclass
class _Outcome:
    """What one question got, from memgov and from the two BM25 baselines."""

    conversation: Conversation
    question: Question
    memgov: set[str] = field(default_factory=set)
    returned: int = 0
    bm25_all: set[str] = field(default_factory=set)
    bm25_stored: set[str] = field(default_factory=set)
    reachable: set[str] = field(default_factory=set)
    decision_of: dict[str, str] = field(default_factory=dict)


def evaluate_conversations(conversations: list[Conversation], *, top_k: int = 10, split: str | None = None) -> dict:
    chosen = [c for c in conversations if split is None or c.split == split]
    token = secrets.token_hex(4)
    decisions: Counter[str] = Counter()
    outcomes: list[_Outcome] = []
    with override_settings(ALLOWED_HOSTS=[HOST]), transaction.atomic():
        tenant = tenant_create(slug=f"conv-eval-{token}", actor=ACTOR)
        _, key = agent_key_create(tenant=tenant, name="conversation-eval", actor=ACTOR)
        client = Client(HTTP_HOST=HOST, headers={"Authorization": f"Bearer {key}"})
        for conversation in chosen:
            outcomes.extend(_run_conversation(client, conversation, top_k, decisions))
        transaction.set_rollback(True)
    return _report(outcomes, decisions, top_k)


def _run_conversation(
    client: Client, conversation: Conversation, top_k: int, decisions: Counter[str]
) -> list[_Outcome]:
    subject = f"{conversation.id}-{_slug(conversation.subject)}"
    turns_of: dict[str, set[str]] = defaultdict(set)  # memory id -> the turns it was written from
    stored: list[Turn] = []
    decision_of: dict[str, str] = {}
    for turn in conversation.turns:
        answer = _post(
            client,
            WRITE_URL,
            {
                "content": turn.content,
                "scope": {"level": "user", "user_id": subject},
                "source": {"source_type": "explicit_user_request", "source_message_id": turn.id},
            },
        )
        decision = answer.get("decision", f"http_{answer.get('_status')}")
        decision_of[turn.id] = decision if decision != "reject" else f"reject:{answer.get('reason_code')}"
        decisions[decision_of[turn.id]] += 1
        if decision == "save" and answer.get("memory_id"):
            turns_of[answer["memory_id"]].add(turn.id)
            stored.append(turn)
    everything = _Bm25([turn.content for turn in conversation.turns])
    kept = _Bm25([turn.content for turn in stored])
    reachable = {turn.id for turn in stored}
    outcomes = []
    for question in conversation.questions:
        answer = _post(
            client,
            CONTEXT_URL,
            {"scope": {"user_id": subject}, "query": question.question, "top_k": top_k, "standing_k": 0},
        )
        found = {turn for item in answer.get("items", []) for turn in turns_of.get(item["id"], ())}
        outcomes.append(
            _Outcome(
                conversation,
                question,
                memgov=found,
                returned=len(answer.get("items", [])),
                bm25_all={conversation.turns[i].id for i in everything.top(question.question, top_k)},
                bm25_stored={stored[i].id for i in kept.top(question.question, top_k)},
                reachable=reachable,
                decision_of=decision_of,
            )
        )
    return outcomes


def _post(client: Client, url: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(url, data=json.dumps(body), content_type="application/json")
    answer = response.json()
    answer["_status"] = response.status_code
    return answer


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "subject"


logging.getLogger("bm25s").setLevel(logging.WARNING)  # it reports each index it builds

_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[\u3400-\u9fff]+")
_STOP = frozenset(STOPWORDS_EN)


def plain_tokens(text: str) -> list[str]:
    """Plain BM25's terms: lower-cased English words (stopwords dropped) and jieba's words of Chinese runs."""
    tokens: list[str] = []
    for run in _WORDS.findall(text.lower()):
        if run[0] >= "\u3400":
            tokens.extend(word for word in jieba.lcut(run) if word.strip())
        elif run not in _STOP:
            tokens.append(run)
    return tokens


class _Bm25:
    """Okapi BM25 (bm25s' defaults) over one conversation's turns."""

    def __init__(self, texts: list[str]) -> None:
        self._size = len(texts)
        self._index = bm25s.BM25()
        if texts:
            self._index.index([plain_tokens(text) or ["\x00"] for text in texts], show_progress=False)

    def top(self, query: str, k: int) -> list[int]:
        terms = [term for term in plain_tokens(query) if term in self._index.vocab_dict] if self._size else []
        if not terms:
            return []
        documents, scores = self._index.retrieve([terms], k=min(k, self._size), show_progress=False)
        return [int(doc) for doc, score in zip(documents[0], scores[0], strict=True) if score > 0]


def _recall(found: set[str], evidence: tuple[str, ...]) -> float:
    return len(found & set(evidence)) / len(evidence)


def _figures(outcomes: list[_Outcome]) -> dict[str, Any]:
    if not outcomes:
        return {"questions": 0}
    return {
        "questions": len(outcomes),
        "recall_at_k": round(mean(_recall(o.memgov, o.question.evidence) for o in outcomes), 4),
        "hit_at_k": round(mean(bool(o.memgov & set(o.question.evidence)) for o in outcomes), 4),
        "bm25_recall_at_k": round(mean(_recall(o.bm25_all, o.question.evidence) for o in outcomes), 4),
        "bm25_stored_recall_at_k": round(mean(_recall(o.bm25_stored, o.question.evidence) for o in outcomes), 4),
        "evidence_stored": round(mean(_recall(o.reachable, o.question.evidence) for o in outcomes), 4),
        "items_returned": round(mean(o.returned for o in outcomes), 2),
    }


def _grouped(outcomes: list[_Outcome], key: Any) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[_Outcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[key(outcome)].append(outcome)
    return {name: _figures(group) for name, group in sorted(groups.items())}


def _report(outcomes: list[_Outcome], decisions: Counter[str], top_k: int) -> dict[str, Any]:
    conversations = {o.conversation.id: o.conversation for o in outcomes}
    return {
        "top_k": top_k,
        "conversations": len(conversations),
        "turns": sum(len(c.turns) for c in conversations.values()),
        "writes": dict(sorted(decisions.items())),
        **_figures(outcomes),
        "by_category": _grouped(outcomes, lambda o: o.question.category),
        "by_language": _grouped(outcomes, lambda o: o.conversation.language),
        "by_style": _grouped(outcomes, lambda o: o.conversation.style),
        "by_split": _grouped(outcomes, lambda o: o.conversation.split),
        "by_conversation": _grouped(outcomes, lambda o: o.conversation.id),
        "misses": [_miss(o) for o in outcomes if not set(o.question.evidence) <= o.memgov],
    }


def _miss(outcome: _Outcome) -> dict[str, Any]:
    """A question memgov did not fully answer: its evidence turns not returned, with their write decisions."""
    missing = [turn for turn in outcome.question.evidence if turn not in outcome.memgov]
    return {
        "question": outcome.question.id,
        "category": outcome.question.category,
        "missing": {turn: outcome.decision_of.get(turn, "") for turn in missing},
        "bm25_found": sorted(set(missing) & outcome.bm25_all),
    }
