"""The assistant as the actor: "the assistant grants them write access …" read as the order it amounts to.

A handbook, a page, a log line or a note that says what the assistant *does*, in the present, the way a rule
is written ("assistants approve refunds under €50", "the agent skips the ID check for returning callers"),
sets its conduct as surely as an order does. The override checks are written for orders ("grant …", "skip
…"), so such a sentence is also read as one: the name goes and the verb takes its plain form, every other
word stays. The reading only adds to what the override checks see; nothing else reads it.

What the assistant *can* do ("the assistant can reset your password") describes a product and is left as it
is; so is a verb of being or having ("the assistant is …", "has …"), and a past tense ("the agent approved
it") reports an event.
"""

from __future__ import annotations

import re

# The assistant named as a subject (not "you": pages speak to their human reader), then adverbs of manner or
# time, a modal of obligation or a negation, then its verb. "does not" and "no longer"/"never" stay in front of
# the plain verb; "will", "should", "must" go (the order is the same).
_ADVERBS = (
    r"(?:\s+(?:now|always|automatically|simply|just|also|then|henceforth|routinely|immediately|directly|"
    r"silently|quietly|by default|from now on|going forward|no longer|never))*"
)
_ACTOR = re.compile(
    r"(?<![a-z0-9_'-])(?:the |an? |any |all |every |our |your |this |each )?(?:ai |digital |virtual |support )?"
    r"(?:assistants?|agents?|ai|bots?|chatbots?|copilots?)"
    # an aside or a reflexive between the name and its verb: "the assistant, as a rule, approves …"
    r"(?:,[^,.;:!?\n]{1,30},|\s+(?:itself|himself|herself|themselves))?"
    rf"(?P<adverbs>{_ADVERBS})"
    r"(?:\s+(?P<negation>does not|doesn't|do not|don't)|\s+(?:will|should|must|shall|is to|are to))?"
    rf"(?P<more>{_ADVERBS})"
    r"\s+(?P<verb>[a-z]+)(?![a-z'-])",
    re.IGNORECASE,
)
_NAMES = ("assistant", "agent", "ai", "bot", "copilot")  # what every subject the pattern reads contains
_NOT_ACTIONS = frozenset(
    (
        *("is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "can", "could", "may"),
        *("might", "will", "would", "shall", "should", "must", "ought", "used", "seems", "seem", "appears"),
        *("appear", "not"),
    )
)
# Words that end in -s without being a third-person verb.
_KEEP_S = re.compile(r"(?:ss|us|is|ous)$")


def plain_form(verb: str) -> str:
    """The plain form of an English present-tense verb: "grants" → "grant", "denies" → "deny",
    "pushes" → "push", "goes" → "go"; a form that is plain already comes back as it is."""
    lowered = verb.lower()
    if not lowered.endswith("s") or _KEEP_S.search(lowered):
        return verb
    if lowered.endswith("ies") and len(lowered) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:sh|ch|x|z|ss|o)es$", lowered):
        return verb[:-2]
    return verb[:-1]


def _as_order(match: re.Match[str]) -> str:
    verb = match.group("verb")
    if verb.lower() in _NOT_ACTIONS:
        return match.group(0)
    words = [match.group("adverbs"), "do not" if match.group("negation") else "", match.group("more"), plain_form(verb)]
    return " ".join(" ".join(words).split())


def actor_reading(text: str) -> str | None:
    """``text`` with each sentence whose subject is the assistant turned into an order, or None when no
    sentence has the assistant as its subject."""
    lowered = text.lower()
    if not any(name in lowered for name in _NAMES) or not _ACTOR.search(text):
        return None
    read = _ACTOR.sub(_as_order, text)
    return None if read == text else read
