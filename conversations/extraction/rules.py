"""The deterministic extractor: a sanitized session in, candidate memories out. Offline, no model.

Read per sentence of the person's turns (a "don't remember" sentence is skipped whatever else it says):

- "remember …", "记住 …", "from now on …" → ``explicit_user_request`` (a list header — "两条规矩：" —
  makes the sentences after it in the message count too; "Remember that." takes the sentence before);
- "No, it should be …", "不对，应该是 …" after the agent spoke, when it says something lasting →
  ``human_agent_correction``, type ``correction``;
- "I usually …", "我一般 …", "我是做前端的" → ``user_statement`` (the pipeline asks for confirmation);
- a rule for the session's workspace ("this repo", "这个项目") → ``project_rule`` at project level;
- one-off requests for a form of answer (``cues.REQUESTS``): seen in an earlier session of the person
  too → ``repeated_user_behavior``; three times in this session → ``agent_inference``.

Of the agent's turns: a pattern it names ("看起来你更偏好 …") → ``agent_inference`` unless the person
accepts (then explicit) or declines (then nothing); an offer the person accepts → explicit; "I keep this
result as a reference" → a ``tool_result_ref`` of that result, session level. Each task the session
touched → one ``task_state`` of its latest state (``task_state_machine``, task level).
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from conversations.extraction import cues
from conversations.extraction.sanitize import REDACTED, Turn, redact, sentences
from conversations.vocabulary import EventKind
from governance.vocabulary import Level, MemoryType, SourceType

INFERENCE_CONFIDENCE = 0.6  # above the default policy's min_inference_confidence (0.5)
REPEAT_IN_SESSION = 3  # the same request this often in one session is a pattern the agent may infer
_QUESTION_TAIL = re.compile(r"[^。.!！]*[?？]\s*$")


@dataclass(frozen=True)
class Proposal:
    """A candidate memory and where it came from (event ids of the session it was read in)."""

    rule: str  # explicit | correction | stated | project | inference | repeated | task | tool_ref
    content: str
    type: MemoryType
    source_type: SourceType
    level: Level
    event_ids: tuple[uuid.UUID, ...]
    confidence: float = 1.0
    task_id: str = ""
    request: str = ""  # the REQUESTS name behind a repeated/inferred preference
    ordinal: int = 0  # among proposals of the same rule, type and events (two rules in one message)

    @property
    def key(self) -> str:
        """Stable across runs of the same session: the rule, type, source events and ordinal (never content)."""
        parts = [self.rule, self.type, self.request, self.task_id, str(self.ordinal)]
        parts += sorted(str(e) for e in self.event_ids)
        return hashlib.sha256("|".join(parts).encode()).hexdigest()


@dataclass(frozen=True)
class SessionView:
    workspace: str
    turns: list[Turn]
    # task id -> (its latest state, the events that name the task)
    tasks: dict[str, tuple[dict[str, Any], tuple[uuid.UUID, ...]]] = field(default_factory=dict)
    prior_requests: frozenset[str] = frozenset()  # request names seen in the person's earlier sessions
    proposed_requests: frozenset[str] = frozenset()  # already proposed from an earlier session
    created_at: dict[uuid.UUID, datetime] = field(default_factory=dict)


@dataclass
class Extraction:
    proposals: list[Proposal] = field(default_factory=list)
    requests_seen: dict[str, list[uuid.UUID]] = field(default_factory=dict)


def _classify(text: str, *, workspace: str, project_hint: bool = False) -> tuple[MemoryType, Level]:
    if workspace and (project_hint or cues.PROJECT.search(text)):
        return MemoryType.PROJECT_RULE, Level.PROJECT
    if cues.PROFILE_STRONG.search(text):
        return MemoryType.USER_PROFILE, Level.USER
    if cues.CONSTRAINT.search(text):
        return MemoryType.CONSTRAINT, Level.USER
    if cues.PROFILE.search(text):
        return MemoryType.USER_PROFILE, Level.USER
    return MemoryType.USER_PREFERENCE, Level.USER


def _clean(text: str) -> str:
    return text.strip().strip("，,;；").strip()


def _usable(sentence: str) -> bool:
    return REDACTED not in sentence and bool(sentence.strip())


class _Reader:
    def __init__(self, view: SessionView) -> None:
        self.view = view
        self.out = Extraction()
        self.requests: dict[str, list[uuid.UUID]] = defaultdict(list)
        self.consumed: set[str] = set()  # requests an inference already covers

    def add(self, rule: str, content: str, *, source: SourceType, event_ids: tuple[uuid.UUID, ...], **kw: Any) -> None:
        content = _clean(content)
        if len(content) < 2 or REDACTED in content:
            return
        if "type" not in kw:
            kw["type"], kw["level"] = _classify(content, workspace=self.view.workspace)
        if any(p.content == content for p in self.out.proposals):
            return
        ordinal = sum(1 for p in self.out.proposals if (p.rule, p.type, p.event_ids) == (rule, kw["type"], event_ids))
        self.out.proposals.append(
            Proposal(rule, content, source_type=source, event_ids=event_ids, ordinal=ordinal, **kw)
        )

    def retract(self, event_id: uuid.UUID) -> None:
        self.out.proposals = [p for p in self.out.proposals if event_id not in p.event_ids]

    # -- the person's turns ------------------------------------------------------------------------
    def user(self, index: int, turn: Turn) -> None:
        parts = [s for s in sentences(turn.text) if _usable(s)]
        after_agent = index > 0 and self.view.turns[index - 1].kind == EventKind.ASSISTANT_MESSAGE
        corrective = after_agent and any(cues.CORRECTION.search(s) for s in parts)
        lasting = corrective and any(cues.LASTING.search(s) for s in parts)
        ids = (turn.event_id,)
        list_mode = project_hint = False
        kept: list[str] = []  # this message's sentences that aren't cues or "don't remember"
        explicit: list[tuple[str, bool]] = []
        for position, sentence in enumerate(parts):
            if cues.DONT.search(sentence):
                if re.search(r"forget|忘|never ?mind|算了", sentence, re.IGNORECASE) and len(parts) == 1:
                    self._retract_previous(index)
                list_mode = False
                continue
            if cues.EXPLICIT.search(sentence):
                remainder = cues.EXPLICIT_PREFIX.sub("", sentence, count=1)
                if cues.LIST_HEADER.search(sentence):
                    list_mode, project_hint = True, bool(cues.PROJECT.search(sentence))
                    remainder = re.split(r"[:：]", sentence, maxsplit=1)[1] if re.search("[:：]", sentence) else ""
                if cues.EMPTY_REMAINDER.match(remainder.strip()):
                    if position > 0 and kept:
                        explicit.append((kept[-1], project_hint))
                        kept.pop()
                    continue
                explicit.append((remainder, project_hint))
                continue
            if list_mode:
                explicit.append((sentence, project_hint))
                continue
            kept.append(sentence)
            for name, pattern, _ in cues.REQUESTS:
                if pattern.search(sentence):
                    self.requests[name].append(turn.event_id)
        if corrective and (lasting or explicit):
            text = " ".join([*kept, *(t for t, _ in explicit)])
            source = SourceType.EXPLICIT_USER_REQUEST if explicit else SourceType.HUMAN_AGENT_CORRECTION
            self.add("correction", text, source=source, event_ids=ids, type=MemoryType.CORRECTION, level=Level.USER)
            return
        for text, hint in explicit:
            kind, level = _classify(text, workspace=self.view.workspace, project_hint=hint)
            self.add("explicit", text, source=SourceType.EXPLICIT_USER_REQUEST, event_ids=ids, type=kind, level=level)
        if explicit:
            return
        for sentence in kept:
            stated = cues.STATED.search(sentence)
            rule = self.view.workspace and cues.PROJECT.search(sentence) and cues.RULE_WORDS.search(sentence)
            if not (stated or rule):
                continue
            text = _QUESTION_TAIL.sub("", sentence) or sentence
            if rule:
                self.add("project", text, source=SourceType.USER_STATEMENT, event_ids=ids,
                         type=MemoryType.PROJECT_RULE, level=Level.PROJECT)  # fmt: skip
            else:
                kind = MemoryType.USER_PROFILE if cues.PROFILE.search(text) else MemoryType.USER_PREFERENCE
                self.add("stated", text, source=SourceType.USER_STATEMENT, event_ids=ids, type=kind, level=Level.USER)

    def _retract_previous(self, index: int) -> None:
        for earlier in reversed(self.view.turns[:index]):
            if earlier.kind == EventKind.USER_MESSAGE:
                self.retract(earlier.event_id)
                return

    # -- the agent's turns -------------------------------------------------------------------------
    def _reply(self, index: int) -> Turn | None:
        for later in self.view.turns[index + 1 :]:
            if later.kind == EventKind.USER_MESSAGE:
                return later
        return None

    def assistant(self, index: int, turn: Turn) -> None:
        parts = [s for s in sentences(turn.text) if _usable(s)]
        if any(cues.KEEP_RESULT.search(s) for s in parts):
            self._tool_ref(index, turn, parts)
            return
        inference = next((s for s in parts if cues.INFERENCE.search(s)), None)
        offer = next((s for s in parts if cues.OFFER.search(s)), None)
        if inference is None and offer is None:
            return
        reply = self._reply(index)
        answer = (reply.text.strip() if reply else "").lstrip("，,。. ")
        if reply is not None and (cues.DECLINE.match(answer) or cues.DONT.search(answer)):
            return
        statement = [s for s in parts if s is not offer and not s.rstrip().endswith(("?", "？"))] or [inference or ""]
        text = " ".join(_QUESTION_TAIL.sub("", s) or s for s in statement)
        ids = (turn.event_id,) + ((reply.event_id,) if reply else ())
        for name, pattern, _ in cues.REQUESTS:
            if pattern.search(turn.text):
                self.consumed.add(name)
        if reply is not None and cues.ACCEPT.match(answer):
            self.add("explicit", text, source=SourceType.EXPLICIT_USER_REQUEST, event_ids=ids)
        elif inference is not None:
            self.add("inference", text, source=SourceType.AGENT_INFERENCE, event_ids=(turn.event_id,),
                     confidence=INFERENCE_CONFIDENCE)  # fmt: skip

    def _tool_ref(self, index: int, turn: Turn, parts: list[str]) -> None:
        facts = [s for s in parts if not cues.KEEP_RESULT.search(s)] or parts
        result = next(
            (t for t in reversed(self.view.turns[:index]) if t.kind == EventKind.TOOL_RESULT and t.text != REDACTED),
            None,
        )
        ids = ((result.event_id,) if result else ()) + (turn.event_id,)
        at = self.view.created_at.get(result.event_id if result else turn.event_id)
        dated = " ".join(facts) + (f" (as of {at:%Y-%m-%d %H:%M} UTC)" if at else "")
        self.add("tool_ref", dated, source=SourceType.TOOL_RESULT, event_ids=ids,
                 type=MemoryType.TOOL_RESULT_REF, level=Level.SESSION)  # fmt: skip

    # -- the session as a whole --------------------------------------------------------------------
    def finish(self) -> Extraction:
        statements = {name: statement for name, _, statement in cues.REQUESTS}
        for name, ids in self.requests.items():
            if name in self.consumed or name in self.view.proposed_requests:
                continue
            if name in self.view.prior_requests:
                self.add("repeated", statements[name], source=SourceType.REPEATED_USER_BEHAVIOR,
                         event_ids=tuple(ids), type=MemoryType.USER_PREFERENCE, level=Level.USER,
                         request=name)  # fmt: skip
            elif len(ids) >= REPEAT_IN_SESSION:
                self.add("inference", f"Seems to: {statements[name]}", source=SourceType.AGENT_INFERENCE,
                         event_ids=tuple(ids), type=MemoryType.USER_PREFERENCE, level=Level.USER,
                         confidence=INFERENCE_CONFIDENCE, request=name)  # fmt: skip
        self.out.requests_seen = dict(self.requests)
        for task_id, (values, ids) in sorted(self.view.tasks.items()):
            text = task_text(values)
            if text:
                self.add("task", text, source=SourceType.TASK_STATE_MACHINE, event_ids=ids[-1:],
                         type=MemoryType.TASK_STATE, level=Level.TASK, task_id=task_id)  # fmt: skip
        return self.out


def task_text(values: dict[str, Any]) -> str:
    """A task's state as one line: goal, step, what is done and pending, the next action, approval.
    Each field is screened on its own; a restricted one is left out (never redacted in place)."""

    def clean(value: object) -> str:
        text, cut = redact(str(value))
        return "" if cut else text.strip()

    parts = []
    for label, name in (("Task", "goal"), ("current step", "current_step"), ("next", "next_action")):
        if value := clean(values.get(name) or ""):
            parts.append(f"{label}: {value}")
    for label, name in (("done", "completed_steps"), ("pending", "pending_fields")):
        items = [clean(item) for item in values.get(name) or []]
        if items := [i for i in items if i]:
            parts.append(f"{label}: {', '.join(items)}")
    approval = values.get("approval_status") or "none"
    if parts and approval != "none":
        parts.append(f"approval: {approval}")
    return "; ".join(parts)


def extract(view: SessionView) -> Extraction:
    reader = _Reader(view)
    for index, turn in enumerate(view.turns):
        if turn.kind == EventKind.USER_MESSAGE:
            reader.user(index, turn)
        elif turn.kind == EventKind.ASSISTANT_MESSAGE:
            reader.assistant(index, turn)
    return reader.finish()
