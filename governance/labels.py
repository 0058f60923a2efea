"""Words people read for the codes memories carry (types, statuses, scopes, sources), translated.

The codes are a contract with agents and stay English in the API; pages show these labels instead.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from audit.events import Event
from governance.vocabulary import DecisionKind, Level, MemoryType, Role, Sensitivity, SourceType, Status

TYPE_LABELS: dict[str, Promise] = {
    MemoryType.USER_PREFERENCE: _("Preference"),
    MemoryType.USER_PROFILE: _("About you"),
    MemoryType.TASK_STATE: _("Task progress"),
    MemoryType.TOOL_RESULT_REF: _("Tool result"),
    MemoryType.CONSTRAINT: _("Constraint"),
    MemoryType.CORRECTION: _("Correction"),
    MemoryType.TEMPORARY_CONTEXT: _("Temporary context"),
    MemoryType.ORGANIZATION_RULE: _("Organization rule"),
    MemoryType.PROJECT_RULE: _("Project rule"),
}

STATUS_LABELS: dict[str, Promise] = {
    Status.ACTIVE: _("In use"),
    Status.PAUSED: _("Paused"),
    Status.PENDING_CONFIRMATION: _("Waiting for you"),
    Status.PENDING_APPROVAL: _("Waiting for an admin"),
    Status.ARCHIVED: _("Archived"),
    Status.EXPIRED: _("Expired"),
    Status.DELETED: _("Deleted"),
}

LEVEL_LABELS: dict[str, Promise] = {
    Level.SESSION: pgettext_lazy("scope", "This session"),
    Level.TASK: pgettext_lazy("scope", "One task"),
    Level.USER: pgettext_lazy("scope", "Just you"),
    Level.TEAM: pgettext_lazy("scope", "Your team"),
    Level.PROJECT: pgettext_lazy("scope", "A project"),
    Level.TENANT: pgettext_lazy("scope", "Everyone in the organization"),
}

SOURCE_LABELS: dict[str, Promise] = {
    SourceType.EXPLICIT_USER_REQUEST: _("You asked to remember it"),
    SourceType.EXPLICIT_USER_CONFIRMATION: _("You confirmed it"),
    SourceType.USER_STATEMENT: _("Something you said"),
    SourceType.REPEATED_USER_BEHAVIOR: _("Your repeated behaviour"),
    SourceType.AGENT_INFERENCE: _("The agent inferred it"),
    SourceType.TASK_STATE_MACHINE: _("Task progress tracking"),
    SourceType.TOOL_RESULT: _("A tool's result"),
    SourceType.HUMAN_AGENT_CORRECTION: _("A correction you made"),
    SourceType.EVALUATION_FEEDBACK: _("Evaluation feedback"),
    SourceType.WEB_CONTENT: _("A web page"),
    SourceType.DOCUMENT_CONTENT: _("A document"),
    SourceType.ADMIN_CONSOLE: _("An administrator"),
}

# Why a memory was kept, by the pipeline's reason code (the stored reason text is English).
REASON_LABELS: dict[str, Promise] = {
    "explicit_request": _("You asked for this to be remembered."),
    "short_lived": _("Kept only for this session or task, with a time limit."),
    "session_scoped": _("Kept only for this session or task."),
    "duplicate": _("You said the same thing again."),
    "supersedes": _("It replaced an earlier memory, at your word."),
    "needs_user_confirmation": _("You didn't ask to remember this; it is kept only if you confirm."),
    "needs_admin_approval": _("A rule for others: an administrator must approve it."),
    "conflict_needs_confirmation": _("It contradicts something remembered earlier; you decide which is right."),
    "seeded": _("Demo data."),
}

# Once a confirmation or an approval is settled, "why" follows what happened rather than what was asked.
DECIDED_WHY: dict[str, Promise] = {
    "confirmed_by_you": _("You confirmed it on %(date)s."),
    "confirmed_for_you": _("Confirmed on %(date)s by %(who)s, on your word."),
    "approved": _("Approved by %(who)s on %(date)s."),
}

# Why a shared rule reaches a person (My memories lists them read-only).
RULE_REACH_LABELS: dict[str, Promise] = {
    "tenant": _("Applies to everyone in your organization"),
    "team": _("Applies because you are in the team %(where)s"),
    "project": _("Applies because you are a member of the project %(where)s"),
}

ROLE_LABELS: dict[str, Promise] = {
    Role.MEMBER: _("Member"),
    Role.TEAM_OWNER: _("Team owner"),
    Role.TENANT_ADMIN: _("Administrator"),
    Role.COMPLIANCE_OFFICER: _("Compliance officer"),
    Role.AGENT: _("Agent"),
}

SENSITIVITY_LABELS: dict[str, Promise] = {
    Sensitivity.LOW: pgettext_lazy("sensitivity", "Low"),
    Sensitivity.MEDIUM: pgettext_lazy("sensitivity", "Medium"),
    Sensitivity.HIGH: pgettext_lazy("sensitivity", "High"),
    Sensitivity.RESTRICTED: pgettext_lazy("sensitivity", "Restricted"),
}

DECISION_LABELS: dict[str, Promise] = {
    DecisionKind.SAVE: pgettext_lazy("decision", "Saved"),
    DecisionKind.ASK_CONFIRMATION: pgettext_lazy("decision", "Asked for confirmation"),
    DecisionKind.REJECT: pgettext_lazy("decision", "Refused"),
}

# Every audit event, as the console names it. A test checks that no event is missing here.
EVENT_LABELS: dict[str, Promise] = {
    Event.MEMORY_CANDIDATE_DETECTED: _("Memory candidate detected"),
    Event.MEMORY_WRITE_REQUESTED: _("Write requested"),
    Event.MEMORY_WRITE_APPROVED: _("Write saved"),
    Event.MEMORY_WRITE_REJECTED: _("Write refused"),
    Event.MEMORY_READ: _("Memories read"),
    Event.MEMORY_INJECTED: _("Memories given to an agent"),
    Event.MEMORY_UPDATED: _("Memory changed"),
    Event.MEMORY_EXPIRED: _("Memory expired"),
    Event.MEMORY_DELETED: _("Memory deleted"),
    Event.MEMORY_CONFLICT_DETECTED: _("Conflict detected"),
    Event.MEMORY_PAUSED: _("Memory paused"),
    Event.MEMORY_RESUMED: _("Memory resumed"),
    Event.MEMORY_ROLLED_BACK: _("Memory rolled back"),
    Event.MEMORY_ARCHIVED: _("Memory archived"),
    Event.MEMORY_PURGED: _("Memory purged"),
    Event.MEMORY_INTEGRITY_FAILED: _("Memory failed its integrity check"),
    Event.MEMORY_RESTORED: _("Memory restored"),
    Event.CONFIRMATION_ACCEPTED: _("Confirmation accepted"),
    Event.CONFIRMATION_DECLINED: _("Confirmation declined"),
    Event.CONFIRMATION_EXPIRED: _("Confirmation expired"),
    Event.CROSS_SCOPE_READ: _("Read outside allowed scope (denied)"),
    Event.SUBJECT_PAUSED: _("Person paused memory"),
    Event.SUBJECT_RESUMED: _("Person resumed memory"),
    Event.SESSION_CREATED: _("Session created"),
    Event.SESSION_UPDATED: _("Session changed"),
    Event.SESSION_ENDED: _("Session ended"),
    Event.SESSION_FORKED: _("Session forked"),
    Event.SESSION_COMPACTED: _("Session compacted"),
    Event.SESSION_DELETED: _("Session deleted"),
    Event.SESSION_EVENTS_APPENDED: _("Session events added"),
    Event.SESSION_POPPED: _("Session events removed"),
    Event.TASK_STATE_CHANGED: _("Task state changed"),
    Event.SESSION_OPTED_OUT: _("Session not to be saved"),
    Event.SESSION_CLEARED: _("Session memories cleared"),
    Event.SUBJECT_EXPORTED: _("Person's data exported"),
    Event.SUBJECT_ERASED: _("Person's data erased"),
    Event.AUDIT_FACT_RECORDED: _("Fact recorded for the audit"),
    Event.TENANT_CREATED: _("Tenant created"),
    Event.MEMBERSHIP_CHANGED: _("Membership changed"),
    Event.AGENT_KEY_CREATED: _("Agent key created"),
    Event.AGENT_KEY_REVOKED: _("Agent key revoked"),
    Event.AGENT_RIGHTS_CHANGED: _("Agent rights changed"),
    Event.POLICY_VERSION_CREATED: _("Policy changed"),
    Event.RULE_APPROVED: _("Rule approved"),
    Event.RULE_REJECTED: _("Rule rejected"),
    Event.RULE_REVOKED: _("Rule revoked"),
    Event.KEYS_ROTATED: _("Keys rotated"),
    Event.AUDIT_EXPORTED: _("Audit log exported"),
    Event.ALERT_RAISED: _("Alert raised"),
    Event.LOGIN_LOCKED_OUT: _("Sign-in locked out"),
    Event.AGENT_AUTH_THROTTLED: _("Agent key attempts throttled"),
    Event.HANDOFF_CREATED: _("Task handed to another agent"),
    Event.HANDOFF_RECEIVED: _("Handed-over task received"),
    Event.SUBJECT_AGENT_BLOCKED: _("Person switched an agent off"),
    Event.SUBJECT_AGENT_ALLOWED: _("Person switched an agent back on"),
    Event.SESSION_OPT_OUT_WITHDRAWN: _("Session may be saved again"),
}

# The reason codes the audit log carries (write decisions, lifecycle, access), short.
AUDIT_REASON_LABELS: dict[str, Promise] = {
    "user_paused": _("memory paused by the person"),
    "session_opt_out": _("session not to be saved"),
    "restricted_data": _("restricted data"),
    "policy_override": _("tries to change safety rules"),
    "injection_classifier": _("reads as an attempt to change safety rules"),
    "untrusted_source": _("untrusted source"),
    "audit_only": _("a fact for the audit only"),
    "not_authorized": _("not authorized"),
    "too_sensitive_for_long_term": _("too sensitive to keep long-term"),
    "transient": _("only relevant for now"),
    "low_confidence": _("not sure enough"),
    "unread_language": _("in a language the gate can't check"),
    "explicit_request": _("asked for by the person"),
    "short_lived": _("kept for the session or task"),
    "session_scoped": _("kept in session or task scope"),
    "duplicate": _("already remembered"),
    "supersedes": _("replaces an earlier memory"),
    "needs_user_confirmation": _("waits for the person"),
    "needs_admin_approval": _("waits for an administrator"),
    "conflict_needs_confirmation": _("conflicts with a memory"),
    "confirmation_expired": _("confirmation expired"),
    "consolidation_proposed": _("merge proposed"),
    "erasure_reapplied": _("erasure applied again"),
    "fork_deleted": _("fork deleted"),
    "instruction_conflict": _("conflicts with the instruction"),
    "merge_sources_changed": _("merged memories changed"),
    "merged": _("merged"),
    "policy_restored": _("earlier policy restored"),
    "purge_grace_elapsed": _("grace period over"),
    "retention_elapsed": _("retention period over"),
    "rule_revoked": _("rule revoked"),
    "subject_paused": _("memory paused by the person"),
    "task_completed": _("task completed"),
    "team_membership_ended": _("left the team"),
    "team_removed": _("team removed"),
    "too_many_failed_keys": _("too many wrong keys"),
    "too_many_failed_logins": _("too many failed sign-ins"),
    "ttl_expired": _("lifetime over"),
    "unused": _("unused too long"),
    "other_subject": _("another person's memories"),
    "not_team_member": _("not in that team"),
    "level_not_allowed": _("scope not allowed for the key"),
    "type_not_allowed": _("type not allowed for the key"),
    "subject_blocked_agent": _("agent switched off by the person"),
}

# What a version or membership change was (the ``change`` of audit details and memory versions).
CHANGE_LABELS: dict[str, Promise] = {
    "added": pgettext_lazy("change", "added"),
    "edit": pgettext_lazy("change", "edited"),
    "edited": pgettext_lazy("change", "edited"),
    "created": pgettext_lazy("change", "created"),
    "project_created": pgettext_lazy("change", "project created"),
    "team_created": pgettext_lazy("change", "team created"),
    "team_owner": pgettext_lazy("change", "made team owner"),
    "team_member": pgettext_lazy("change", "added to the team"),
    "team_removed": pgettext_lazy("change", "removed from the team"),
    "invitation_accepted": pgettext_lazy("change", "invitation accepted"),
    "invitation_declined": pgettext_lazy("change", "invitation declined"),
    "invitation_withdrawn": pgettext_lazy("change", "invitation withdrawn"),
    "invited": pgettext_lazy("change", "invited"),
    "project_member": pgettext_lazy("change", "added to the project"),
    "project_removed": pgettext_lazy("change", "removed from the project"),
    "rolled_back": pgettext_lazy("change", "rolled back"),
    "superseded": pgettext_lazy("change", "replaced"),
    "role_changed": pgettext_lazy("change", "role changed"),
    "assistant_message": pgettext_lazy("change", "assistant message"),
    "user_message": pgettext_lazy("change", "user message"),
}

# The keys of audit details (ids, codes and counts), as a person reads them.
DETAIL_KEY_LABELS: dict[str, Promise] = {
    "change": _("change"),
    "key_prefix": _("key"),
    "version": _("version"),
    "team": _("team"),
    "session_id": _("session"),
    "confirmation_id": _("confirmation"),
    "agent": _("agent"),
    "agent_id": _("agent"),
    "to_status": _("new status"),
    "from_status": _("old status"),
    "superseded": _("replaced"),
    "role": _("role"),
    "project_id": _("project"),
    "count": _("count"),
    "confirm_by": _("confirmed by"),
    "to_version": _("to version"),
    "receipt_id": _("receipt"),
    "proposal_id": _("proposal"),
    "memory_ids": _("memories"),
    "memories": _("memories"),
    "invitation": _("invitation"),
    "field": _("field"),
    "decision_id": _("decision"),
    "candidates": _("candidates"),
    "items": _("items"),
    "tokens": _("tokens"),
    "app": _("app"),
    "policy_version": _("policy version"),
    "leaf_id": _("latest event"),
    "first_seq": _("first event"),
    "last_seq": _("last event"),
    "kinds": _("kinds"),
    "dont_save": _("don't save"),
    "title": _("title"),
    "events": _("events"),
    "user_id": _("person"),
    "membership": _("membership"),
    "username": _("account"),
    "parent_id": _("forked from"),
}

# §18.1: how the list is grouped for a person, in this order.
GROUPS: tuple[tuple[str, Promise, Promise], ...] = (
    ("preferences", _("Preferences"), _("How you like answers and work to be done.")),
    ("profile", _("Profile"), _("Facts about you, and corrections you made.")),
    ("projects", _("Projects and rules"), _("Projects you work on and the rules you set.")),
    ("temporary", _("Current tasks and temporary"), _("Kept for one session or task; they expire.")),
)
_GROUP_OF_TYPE = {
    MemoryType.USER_PREFERENCE: "preferences",
    MemoryType.USER_PROFILE: "profile",
    MemoryType.CORRECTION: "profile",
    MemoryType.CONSTRAINT: "projects",
    MemoryType.PROJECT_RULE: "projects",
    MemoryType.ORGANIZATION_RULE: "projects",
}


def group_of(*, type: str, level: str) -> str:
    """Session and task memories are temporary whatever their type; the rest go by type."""
    if level in (Level.SESSION, Level.TASK):
        return "temporary"
    return _GROUP_OF_TYPE.get(type, "temporary")  # type: ignore[call-overload]


def label(table: dict[str, Promise], code: str) -> str:
    return str(table.get(code, code))


def actor_label(actor: str) -> str:
    """``user:alice`` → alice; ``agent:x`` → agent x; ``system`` and other kinds, translated."""
    kind, sep, name = actor.partition(":")
    if not sep:
        return str(ACTOR_KIND_LABELS.get(actor, actor))
    if kind == "user":
        return name
    return str(_("%(kind)s %(name)s") % {"kind": ACTOR_KIND_LABELS.get(kind, kind), "name": name})


ACTOR_KIND_LABELS: dict[str, Promise] = {
    "agent": pgettext_lazy("actor", "agent"),
    "system": pgettext_lazy("actor", "memgov"),
    "task": pgettext_lazy("actor", "scheduled job"),
    "cli": pgettext_lazy("actor", "command line"),
    "operator": pgettext_lazy("actor", "operator"),
    "test": pgettext_lazy("actor", "test"),
}


def code_label(code: str, *, table: dict[str, Promise] | None = None) -> str:
    """Any known code (role, status, scope, type, source, sensitivity, decision, reason, change), as its
    label; anything else (an id, a count) as it is. ``table`` is looked at first."""
    if table is not None and code in table:
        return str(table[code])
    for known in _CODE_TABLES:
        if code in known:
            return str(known[code])
    return code


_CODE_TABLES = (
    CHANGE_LABELS,
    ROLE_LABELS,
    STATUS_LABELS,
    LEVEL_LABELS,
    TYPE_LABELS,
    SOURCE_LABELS,
    SENSITIVITY_LABELS,
    DECISION_LABELS,
    AUDIT_REASON_LABELS,
    EVENT_LABELS,
)
