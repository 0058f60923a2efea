"""What an extractor may read of a session: seed 000 §18.4's sanitizing, before anything is derived.

- system and developer messages are dropped whole;
- memory-excluded context fragments (``<environment_context>…</environment_context>``,
  ``<user_instructions>…</user_instructions>``) are cut out of the messages that carry them;
- every sentence the recognizers rate restricted (keys, tokens, passwords, private keys, resident ids,
  card numbers, a diagnosis …) is replaced by ``[REDACTED]``, so no extractor, candidate, summary or log
  line can carry it. A whole message is screened first: most have nothing, and pay one detector call.

Tool calls and results are kept as they are for the task-state and tool-result rules, which never copy
their text into a candidate (they cite the events).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from conversations.vocabulary import EventKind
from governance.recognizers import detect_sensitivity
from governance.vocabulary import Sensitivity

REDACTED = "[REDACTED]"
DROPPED_KINDS = frozenset({EventKind.SYSTEM_MESSAGE, EventKind.DEVELOPER_MESSAGE})
# The message kinds an extractor reads as text.
TEXT_KINDS = frozenset({EventKind.USER_MESSAGE, EventKind.ASSISTANT_MESSAGE, EventKind.TOOL_RESULT})
_EXCLUDED = re.compile(r"<(environment_context|user_instructions)>.*?(?:</\1>|\Z)", re.DOTALL | re.IGNORECASE)
# Sentences: up to a terminator (Chinese or Latin, or a line break), the terminator kept.
_SENTENCE = re.compile(r"[^。！？!?；;\n]+(?:[。！？!?；;]+|\n|$)|[^\S\n]*\n")
_LATIN_STOP = re.compile(r"(?<=[A-Za-z0-9)\]\"'`])\.\s+(?=[A-Z])")


@dataclass(frozen=True)
class Turn:
    """One event as an extractor sees it. ``text`` is sanitized; ``redacted`` counts what was cut."""

    seq: int
    event_id: uuid.UUID
    kind: str
    text: str
    task_id: str = ""
    tool_call_id: str = ""
    meta: dict[str, Any] | None = None
    redacted: int = 0


def sentences(text: str) -> list[str]:
    out: list[str] = []
    for piece in _SENTENCE.findall(text):
        for part in _LATIN_STOP.split(piece):
            if part.strip():
                out.append(part.strip())
    return out


def redact(text: str) -> tuple[str, int]:
    """``text`` with its restricted sentences replaced, and how many were."""
    if not text.strip() or detect_sensitivity(text).level != Sensitivity.RESTRICTED:
        return text, 0
    kept, cut = [], 0
    for sentence in sentences(text):
        if detect_sensitivity(sentence).level == Sensitivity.RESTRICTED:
            kept.append(REDACTED)
            cut += 1
        else:
            kept.append(sentence)
    if not cut:  # restricted only as a whole (a value split across sentences): cut it all
        return REDACTED, 1
    return "\n".join(kept), cut  # one sentence a line: what is read after never merges with the mark


def sanitize(events: list[Any]) -> tuple[list[Turn], int]:
    """The readable turns of ``events`` (StoredEvent-like: seq, id, kind, content …) and how many
    messages were dropped whole."""
    turns: list[Turn] = []
    dropped = 0
    for event in events:
        kind = event.kind
        if kind in DROPPED_KINDS:
            dropped += 1
            continue
        text = event.content or ""
        if kind == EventKind.USER_MESSAGE:
            text = _EXCLUDED.sub(" ", text).strip()
        if kind in TEXT_KINDS or kind == EventKind.TOOL_CALL:
            text, cut = redact(text)
        else:
            text, cut = "", 0
        turns.append(
            Turn(
                seq=event.seq,
                event_id=event.id,
                kind=kind,
                text=text,
                task_id=event.task_id,
                tool_call_id=event.tool_call_id,
                meta=event.meta,
                redacted=cut,
            )
        )
    return turns, dropped
