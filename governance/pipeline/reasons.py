"""The stable reason codes of write decisions: agents, the audit log and the evaluation set key on them."""

from __future__ import annotations

from enum import StrEnum


class ReasonCode(StrEnum):
    # reject
    USER_PAUSED = "user_paused"  # rule 2
    SESSION_OPT_OUT = "session_opt_out"  # rule 2
    SUBJECT_BLOCKED_AGENT = "subject_blocked_agent"  # rule 2: the person switched this agent off
    RESTRICTED_DATA = "restricted_data"  # rule 3
    POLICY_OVERRIDE = "policy_override"  # rule 4
    INJECTION_CLASSIFIER = "injection_classifier"  # rule 4, caught by the learned classifier, not a lexicon
    UNTRUSTED_SOURCE = "untrusted_source"  # rule 5
    AUDIT_ONLY = "audit_only"  # rule 6
    NOT_AUTHORIZED = "not_authorized"  # rule 7
    TOO_SENSITIVE_FOR_LONG_TERM = "too_sensitive_for_long_term"  # rule 8
    TRANSIENT = "transient"  # rule 9
    LOW_CONFIDENCE = "low_confidence"  # rule 10
    # rules 4 and 10: a passage in a language the gate doesn't read (untrusted content, or long-term memory)
    UNREAD_LANGUAGE = "unread_language"
    # save
    EXPLICIT_REQUEST = "explicit_request"  # rule 10: the person asked for or confirmed it
    SHORT_LIVED = "short_lived"  # rules 9 and 11: session/task memory with the type's TTL
    SESSION_SCOPED = "session_scoped"  # a long-term type kept only in session/task scope
    DUPLICATE = "duplicate"  # rule 12: the same memory is already active
    SUPERSEDES = "supersedes"  # rule 12: an explicit source replaces a contradicting memory
    # ask_confirmation
    NEEDS_USER_CONFIRMATION = "needs_user_confirmation"  # rule 10
    NEEDS_ADMIN_APPROVAL = "needs_admin_approval"  # rule 7
    CONFLICT_NEEDS_CONFIRMATION = "conflict_needs_confirmation"  # rule 12
    MERGE_PROPOSED = "merge_proposed"  # rule 12: a partial overlap, merged once the user confirms (§10.2)


# Rule 4's codes: a lexicon named the override, or the classifier read the content as one.
RULE_4_CODES = frozenset({ReasonCode.POLICY_OVERRIDE, ReasonCode.INJECTION_CLASSIFIER})
