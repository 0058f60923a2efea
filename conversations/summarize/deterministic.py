"""The default summarizer: rules and lexicons in Chinese and English, no model, no network.

Keeps what §11.1 keeps — the goal, confirmed facts, completed steps, open items, tool-result references
(ids only, §11.2), decisions and approvals, conflicts and uncertainties — and drops what it drops:
small talk, an assistant's intermediate reasoning, conclusions a later correction superseded, and any
sentence the sensitivity recognizers call restricted (checked again on every line of the result).
"""

from __future__ import annotations

import re

from conversations.summarize.base import SourceEvent, Summary, SummaryInput, parse
from conversations.vocabulary import EventKind
from governance.pipeline.lexicons.audit_only import find_audit_only_fact
from governance.pipeline.lexicons.transient import transient_cue
from governance.recognizers import detect_sensitivity
from governance.vocabulary import Sensitivity

_SENTENCE = re.compile(r"[^。！？!?\n.]+(?:[。！？!?.]+|$)")
_QUESTION = re.compile(
    r"[?？]\s*$|^(?:what|how|why|when|where|which|who|can|could|should|is|are|do|does)\b|[吗呢]\s*[?？]?$", re.I
)
_UNCERTAIN = re.compile(
    r"\b(?:not sure|unsure|unclear|maybe|might|perhaps|conflict\w*|contradict\w*|don't know|uncertain)\b"
    r"|不确定|不清楚|也许|可能|冲突|矛盾|不知道",
    re.I,
)
_DECISION = re.compile(
    r"\b(?:decided|decision|approved?|agreed|rejected|denied|go with|we'll use|chose)\b"
    r"|决定|批准|同意|驳回|拒绝|选定|确定用",
    re.I,
)
_CORRECTION = re.compile(
    r"^(?:actually|no[,，]|correction|instead|sorry,? i meant)\b|其实|不对|更正|改成|纠正|应该是", re.I
)
_AFFIRM = re.compile(r"^(?:yes|yep|correct|right|exactly|that's right|confirmed?)\b|^(?:对|是的|没错|正确|确认)", re.I)
_WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]", re.I)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def _terms(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _overlap(a: str, b: str) -> float:
    ta, tb = _terms(a), _terms(b)
    return len(ta & tb) / max(1, min(len(ta), len(tb)))


class _Reader:
    def __init__(self, summary: Summary) -> None:
        self.summary = summary
        self.facts: list[tuple[str, int]] = []  # (sentence, seq), before superseded ones are dropped
        self.goal: tuple[str, int] | None = None
        self.last_assistant: tuple[str, int] | None = None

    def clean(self, text: str) -> list[str]:
        """The sentences worth reading: restricted ones and small talk dropped (and counted)."""
        if detect_sensitivity(text).level != Sensitivity.RESTRICTED:
            sentences = _sentences(text)
        else:
            sentences = []
            for sentence in _sentences(text):
                if detect_sensitivity(sentence).level == Sensitivity.RESTRICTED:
                    self.summary.drop("restricted")
                else:
                    sentences.append(sentence)
        kept = []
        for sentence in sentences:
            if transient_cue(sentence) == "small_talk" or (len(_terms(sentence)) < 2 and not _AFFIRM.match(sentence)):
                self.summary.drop("small_talk")
            else:
                kept.append(sentence)
        return kept

    def user(self, event: SourceEvent) -> None:
        for sentence in self.clean(event.content):
            if _AFFIRM.match(sentence) and self.last_assistant is not None:
                # "Yes, that's right": what the assistant just said is now a confirmed fact.
                self.facts.append(self.last_assistant)
                self.last_assistant = None
                continue
            if self.goal is None and not _AFFIRM.match(sentence):
                self.goal = (sentence, event.seq)
                continue
            self.classify(sentence, event.seq, speaker_is_user=True)

    def assistant(self, event: SourceEvent) -> None:
        sentences = self.clean(event.content)
        for sentence in sentences:
            if not self.classify(sentence, event.seq, speaker_is_user=False):
                self.summary.drop("reasoning")
        self.last_assistant = (sentences[-1], event.seq) if sentences else None

    def classify(self, sentence: str, seq: int, *, speaker_is_user: bool) -> bool:
        if _UNCERTAIN.search(sentence):
            self.summary.add("uncertain", sentence, seq)
        elif find_audit_only_fact(sentence) or _DECISION.search(sentence):
            self.summary.add("decisions", sentence, seq)
        elif _CORRECTION.search(sentence):
            before = len(self.facts)
            self.facts = [(fact, s) for fact, s in self.facts if _overlap(fact, sentence) < 0.3]
            self.summary.drop("superseded", before - len(self.facts))
            self.facts.append((sentence, seq))
        elif speaker_is_user and _QUESTION.search(sentence):
            self.summary.add("open", sentence, seq)
        elif speaker_is_user:
            self.facts.append((sentence, seq))
        else:
            return False
        return True


def _tasks(summary: Summary, source: SummaryInput) -> None:
    for task_id, state in source.tasks:
        if state.get("goal"):
            summary.add("goal", f"{state['goal']} (task {task_id})")
        if state.get("completed_steps"):
            summary.add("done", f"{task_id}: {', '.join(map(str, state['completed_steps']))}")
        if state.get("current_step"):
            summary.add("open", f"{task_id}: current step {state['current_step']}")
        if state.get("pending_fields"):
            summary.add("open", f"{task_id}: waiting for {', '.join(map(str, state['pending_fields']))}")
        if state.get("next_action"):
            summary.add("open", f"{task_id}: next {state['next_action']}")
        if state.get("approval_status") not in (None, "", "none"):
            summary.add("decisions", f"{task_id}: approval {state['approval_status']}")


def summarize_deterministic(source: SummaryInput) -> Summary:
    summary = Summary()
    for key, lines in parse(source.previous).items():  # roll the previous summary up
        summary.lines[key].extend(lines)
    reader = _Reader(summary)
    if summary.lines["goal"] or any(state.get("goal") for _, state in source.tasks):
        reader.goal = ("", 0)  # the goal is known: the first user sentence is read like the others
    for event in source.events:
        if event.kind == EventKind.USER_MESSAGE:
            reader.user(event)
        elif event.kind in (EventKind.ASSISTANT_MESSAGE, EventKind.BRANCH_SUMMARY, EventKind.HANDOFF):
            reader.assistant(event)
        elif event.kind == EventKind.TOOL_RESULT:
            # A reference, never the raw result (§11.2 "工具结果只存引用 ID").
            call = f" for {event.tool_call_id}" if event.tool_call_id else ""
            summary.add("tools", f"{event.result_type or 'query'} result{call}", event.seq)
    _tasks(summary, source)
    if reader.goal is not None and reader.goal[0] and not summary.lines["goal"]:
        summary.add("goal", *reader.goal)
    for fact, seq in reader.facts:
        summary.add("facts", fact, seq)
    return summary.screened()
