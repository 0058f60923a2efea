"""What people read for session states and event kinds, in their language."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from conversations.vocabulary import EventKind, SessionState

SESSION_STATE_LABELS: dict[str, Promise] = {
    SessionState.CREATED: pgettext_lazy("session", "New"),
    SessionState.ACTIVE: pgettext_lazy("session", "Active"),
    SessionState.SUSPENDED: pgettext_lazy("session", "Suspended"),
    SessionState.COMPACTING: pgettext_lazy("session", "Summarizing"),
    SessionState.ENDED: pgettext_lazy("session", "Ended"),
}

EVENT_KIND_LABELS: dict[str, Promise] = {
    EventKind.USER_MESSAGE: _("You"),
    EventKind.ASSISTANT_MESSAGE: _("Assistant"),
    EventKind.TOOL_CALL: _("Tool call"),
    EventKind.TOOL_RESULT: _("Tool result"),
    EventKind.STATE_DELTA: _("State change"),
    EventKind.COMPACTION: _("Summary"),
    EventKind.BRANCH_SUMMARY: _("Branch summary"),
    EventKind.LABEL: _("Label"),
    EventKind.MODEL_CHANGE: _("Model change"),
    EventKind.HANDOFF: _("Handoff"),
}
