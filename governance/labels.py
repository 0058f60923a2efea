"""Words people read for the codes memories carry (types, statuses, scopes, sources), translated.

The codes are a contract with agents and stay English in the API; pages show these labels instead.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from governance.vocabulary import Level, MemoryType, SourceType, Status

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
