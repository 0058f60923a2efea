"""The normalized form of memory content that dedup fingerprints are computed over (rule 12).

Two candidates that differ only in width, case, spacing or punctuation are the same memory:
"记住我喜欢回答里多用表格。" and "记住我喜欢回答里多用表格", "Remember: I like X!" and "remember i like x".
The caller computes the keyed HMAC over this string, so content is compared without being stored.
"""

from __future__ import annotations

import unicodedata


def normalize_content(text: str) -> str:
    """NFKC (full-width → half-width), case-folded, without whitespace or punctuation.

    Punctuation is every Unicode ``P*`` category, which covers ASCII and CJK marks alike
    (。，！？：；、「」（）…); invisible ``C*`` characters (zero-width spaces) go too. Symbols
    (``+``, ``$``, ``#``) are kept: "C++" is not "C".
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if not ch.isspace() and not unicodedata.category(ch).startswith(("P", "Z", "C")))
