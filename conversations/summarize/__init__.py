"""Summaries for compaction (§11): what a summary keeps and drops, the deterministic summarizer (the
default, offline) and an optional LLM summarizer behind ``MEMGOV_SUMMARIZER_URL``.

Whichever made it, every line of a summary passes the sensitivity recognizers before it is kept:
restricted text (secrets, id, card and passport numbers, diagnoses) never enters a summary.
"""

from __future__ import annotations

from django.conf import settings

from conversations.summarize.base import SummarizerUnavailable, Summary, SummaryInput
from conversations.summarize.deterministic import summarize_deterministic


def summarize(source: SummaryInput) -> Summary:
    """The summary of ``source`` by the configured summarizer."""
    if settings.MEMGOV_SUMMARIZER_URL:
        from conversations.summarize.llm import summarize_llm

        return summarize_llm(source)
    return summarize_deterministic(source)


__all__ = ["SummarizerUnavailable", "Summary", "SummaryInput", "summarize"]
