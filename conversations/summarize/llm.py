"""An optional LLM summarizer: an OpenAI-compatible chat completions endpoint answering in strict JSON.

Off unless ``MEMGOV_SUMMARIZER_URL`` is set. What it is sent has passed the same screening as the
deterministic summarizer's input (restricted sentences and small talk removed, tool results as
references only), and what it answers is screened again line by line before it is kept.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from django.conf import settings

from conversations.summarize.base import SECTIONS, SummarizerUnavailable, Summary, SummaryInput
from conversations.summarize.deterministic import _Reader
from conversations.vocabulary import EventKind

PROMPT = (
    "You summarize an agent session for its next model call. Keep: the user's goal, confirmed facts, completed "
    "steps, open items, tool-result references, decisions and approvals, conflicts and uncertainties. Drop: "
    "small talk, low-value reasoning, conclusions later information superseded, sensitive raw text. Cite the "
    "events each line comes from as (#seq). Answer with the JSON object the schema describes, nothing else."
)
SCHEMA = {
    "type": "object",
    "properties": {key: {"type": "array", "items": {"type": "string"}} for key, _ in SECTIONS},
    "required": [key for key, _ in SECTIONS],
    "additionalProperties": False,
}


def _transcript(source: SummaryInput, summary: Summary) -> list[dict[str, Any]]:
    reader = _Reader(summary)  # its screening only: restricted sentences and small talk never leave
    lines = []
    for event in source.events:
        if event.kind == EventKind.TOOL_RESULT:
            lines.append({"seq": event.seq, "kind": event.kind, "text": f"{event.result_type or 'query'} result"})
        elif event.kind in (EventKind.USER_MESSAGE, EventKind.ASSISTANT_MESSAGE):
            text = " ".join(reader.clean(event.content))
            if text:
                lines.append({"seq": event.seq, "kind": event.kind, "text": text})
    return lines


def summarize_llm(source: SummaryInput) -> Summary:
    summary = Summary(summarizer="llm")
    body = {
        "model": settings.MEMGOV_SUMMARIZER_MODEL or "default",
        "messages": [
            {"role": "system", "content": PROMPT},
            {
                "role": "user",
                "content": json.dumps(
                    {
                        "previous_summary": source.previous,
                        "tasks": dict(source.tasks),
                        "events": _transcript(source, summary),
                    },
                    ensure_ascii=False,
                ),
            },
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "summary", "strict": True, "schema": SCHEMA},
        },
        "temperature": 0,
    }
    headers = (
        {"Authorization": f"Bearer {settings.MEMGOV_SUMMARIZER_API_KEY}"} if settings.MEMGOV_SUMMARIZER_API_KEY else {}
    )
    try:
        response = httpx.post(
            settings.MEMGOV_SUMMARIZER_URL, json=body, headers=headers, timeout=settings.MEMGOV_SUMMARIZER_TIMEOUT
        )
        response.raise_for_status()
        answer = json.loads(response.json()["choices"][0]["message"]["content"])
    except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
        # The reason is the error's type only: a response body may echo what was sent.
        raise SummarizerUnavailable(f"the summarizer failed ({type(exc).__name__})") from None
    if not isinstance(answer, dict):
        raise SummarizerUnavailable("the summarizer's answer is not an object")
    for key, _ in SECTIONS:
        items = answer.get(key, [])
        if not isinstance(items, list):
            raise SummarizerUnavailable(f"the summarizer's {key} is not a list")
        for item in items:
            if isinstance(item, str):
                summary.add(key, item)
    return summary.screened()
