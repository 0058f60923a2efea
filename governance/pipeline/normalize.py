"""Normalization for dedup fingerprints: the same memory written twice must fingerprint equal."""

from __future__ import annotations

import unicodedata


def normalize_content(text: str) -> str:
    """NFKC (full-width → half-width), casefold, and drop whitespace and punctuation of any script."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if not (ch.isspace() or unicodedata.category(ch).startswith(("P", "S"))))
