"""What a summary is: §11.1's sections in a fixed order, each line citing the events it came from.

The rendered text is what a compaction event holds; ``parse`` reads it back, so that the next
compaction rolls the previous summary up instead of losing it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from governance.recognizers import detect_sensitivity
from governance.vocabulary import Sensitivity

# §11.1 "保留", in the order a budget that can't hold all of it gives them up last to first.
SECTIONS: tuple[tuple[str, str], ...] = (
    ("goal", "Goal"),
    ("facts", "Confirmed facts"),
    ("done", "Completed steps"),
    ("open", "Open items"),
    ("tools", "Tool results"),
    ("decisions", "Decisions and approvals"),
    ("uncertain", "Conflicts and uncertainties"),
)
HEADINGS = {heading: key for key, heading in SECTIONS}
# A summary stays small however long the history: each section keeps its newest lines (later facts and
# steps supersede earlier ones; the goal is the first thing said, so it keeps its oldest).
LINES_PER_SECTION = {"goal": 2, "facts": 20, "done": 10, "open": 10, "tools": 10, "decisions": 10, "uncertain": 10}
LINE_CHARS = 400
_CITE = re.compile(r" \(#[0-9, #]+\)$")


class SummarizerUnavailable(Exception):
    """The configured summarizer can't be reached or answered nonsense; try again later (a 503)."""


@dataclass(frozen=True)
class SourceEvent:
    seq: int
    kind: str
    content: str
    tool_call_id: str = ""
    task_id: str = ""
    result_type: str = ""


@dataclass(frozen=True)
class SummaryInput:
    events: tuple[SourceEvent, ...]
    previous: str = ""  # the summary this one rolls up
    tasks: tuple[tuple[str, dict[str, Any]], ...] = ()  # (task id, state) at the leaf


@dataclass
class Summary:
    lines: dict[str, list[str]] = field(default_factory=lambda: {key: [] for key, _ in SECTIONS})
    dropped: dict[str, int] = field(default_factory=dict)
    summarizer: str = "deterministic"

    def add(self, section: str, text: str, *seqs: int) -> None:
        text = " ".join(text.split())
        if not text:
            return
        cite = f" (#{', #'.join(str(s) for s in sorted(set(seqs)))})" if seqs else ""
        line = text + cite
        if line not in self.lines[section]:
            self.lines[section].append(line)

    def drop(self, reason: str, n: int = 1) -> None:
        self.dropped[reason] = self.dropped.get(reason, 0) + n

    def bounded(self) -> Summary:
        """At most ``LINES_PER_SECTION`` lines of at most ``LINE_CHARS`` characters each (the rest counted as
        dropped), so a summary never grows with the history it covers."""
        for key, lines in self.lines.items():
            limit = LINES_PER_SECTION[key]
            if len(lines) > limit:
                self.drop("over_limit", len(lines) - limit)
                lines = lines[:limit] if key == "goal" else lines[-limit:]
            self.lines[key] = [line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + "…" for line in lines]
        return self

    def screened(self) -> Summary:
        """This summary, bounded, without any line the recognizers call restricted (counted as dropped)."""
        self.bounded()
        for key, lines in self.lines.items():
            kept = []
            for line in lines:
                if detect_sensitivity(line).level == Sensitivity.RESTRICTED:
                    self.drop("restricted")
                else:
                    kept.append(line)
            self.lines[key] = kept
        return self

    def render(self) -> str:
        parts = []
        for key, heading in SECTIONS:
            lines = self.lines[key]
            if not lines:
                continue
            if key == "goal" and len(lines) == 1:
                parts.append(f"{heading}: {lines[0]}")
            else:
                parts.append(f"{heading}:\n" + "\n".join(f"- {line}" for line in lines))
        return "\n".join(parts)


def parse(text: str) -> dict[str, list[str]]:
    """The sections of a rendered summary (lines keep their citations)."""
    found: dict[str, list[str]] = {key: [] for key, _ in SECTIONS}
    current = None
    for raw in text.splitlines():
        line = raw.rstrip()
        heading, sep, rest = line.partition(":")
        if not line.startswith("- ") and sep and heading in HEADINGS:
            current = HEADINGS[heading]
            if rest.strip():
                found[current].append(rest.strip())
        elif line.startswith("- ") and current is not None:
            found[current].append(line[2:])
    return found


def uncited(line: str) -> str:
    return _CITE.sub("", line)
