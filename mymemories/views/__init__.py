"""The "My memories" pages: one module per flow, each view thin over the services and selectors."""

from mymemories.views.add import memory_add_view
from mymemories.views.agents import agent_switch_view, agents_view
from mymemories.views.bulk import memory_bulk_view
from mymemories.views.commands import commands_view
from mymemories.views.deleted import deleted_view, memory_restore_view
from mymemories.views.edit import memory_delete_view, memory_edit_view, memory_pause_view, memory_resume_view
from mymemories.views.erase import erase_receipt_view, erase_view
from mymemories.views.export import data_view, export_view
from mymemories.views.history import memory_history_view, memory_rollback_view
from mymemories.views.inbox import confirmation_accept_view, confirmation_decline_view, inbox_view
from mymemories.views.invitations import invitation_accept_view, invitation_decline_view, invitations_view
from mymemories.views.list import memory_list
from mymemories.views.preview import preview_view
from mymemories.views.sessions import session_delete_view, session_history_view
from mymemories.views.settings import (
    controls_view,
    session_clear_view,
    session_opt_out_view,
    session_temporary_view,
    subject_pause_view,
    subject_resume_view,
)

__all__ = [
    "agent_switch_view",
    "agents_view",
    "commands_view",
    "confirmation_accept_view",
    "confirmation_decline_view",
    "controls_view",
    "data_view",
    "deleted_view",
    "erase_receipt_view",
    "erase_view",
    "export_view",
    "inbox_view",
    "invitation_accept_view",
    "invitation_decline_view",
    "invitations_view",
    "memory_add_view",
    "memory_bulk_view",
    "memory_delete_view",
    "memory_edit_view",
    "memory_history_view",
    "memory_list",
    "memory_pause_view",
    "memory_restore_view",
    "memory_resume_view",
    "memory_rollback_view",
    "preview_view",
    "session_clear_view",
    "session_delete_view",
    "session_history_view",
    "session_opt_out_view",
    "session_temporary_view",
    "subject_pause_view",
    "subject_resume_view",
]
