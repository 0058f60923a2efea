"""The "My memories" pages. Ids only in paths; anything a person types travels in POST bodies."""

from django.urls import path

from mymemories import views

urlpatterns = [
    path("", views.memory_list, name="my-memories"),
    path("memories/add", views.memory_add_view, name="memory-add"),
    path("memories/bulk", views.memory_bulk_view, name="memory-bulk"),
    path("memories/<uuid:memory_id>/edit", views.memory_edit_view, name="memory-edit"),
    path("memories/<uuid:memory_id>/delete", views.memory_delete_view, name="memory-delete"),
    path("memories/<uuid:memory_id>/pause", views.memory_pause_view, name="memory-pause"),
    path("memories/<uuid:memory_id>/resume", views.memory_resume_view, name="memory-resume"),
    path("memories/<uuid:memory_id>/history", views.memory_history_view, name="memory-history"),
    path("memories/<uuid:memory_id>/rollback", views.memory_rollback_view, name="memory-rollback"),
    path("memories/<uuid:memory_id>/restore", views.memory_restore_view, name="memory-restore"),
    path("deleted/", views.deleted_view, name="memory-deleted"),
    path("inbox/", views.inbox_view, name="memory-inbox"),
    path("inbox/<uuid:confirmation_id>/accept", views.confirmation_accept_view, name="confirmation-accept"),
    path("inbox/<uuid:confirmation_id>/decline", views.confirmation_decline_view, name="confirmation-decline"),
    path("invitations/", views.invitations_view, name="invitations"),
    path("invitations/<uuid:invitation_id>/accept", views.invitation_accept_view, name="invitation-accept"),
    path("invitations/<uuid:invitation_id>/decline", views.invitation_decline_view, name="invitation-decline"),
    path("controls/", views.controls_view, name="memory-controls"),
    path("controls/pause", views.subject_pause_view, name="subject-pause"),
    path("controls/resume", views.subject_resume_view, name="subject-resume"),
    path("controls/sessions/opt-out", views.session_opt_out_view, name="session-opt-out"),
    path("controls/sessions/clear", views.session_clear_view, name="session-clear"),
    path("sessions/<uuid:session_id>/", views.session_history_view, name="session-history"),
    path("sessions/<uuid:session_id>/delete", views.session_delete_view, name="session-delete"),
    path("sessions/<uuid:session_id>/temporary", views.session_temporary_view, name="session-temporary"),
    path("agents/", views.agents_view, name="my-agents"),
    path("agents/<int:agent_id>/switch", views.agent_switch_view, name="agent-switch"),
    path("commands/", views.commands_view, name="memory-commands"),
    path("preview/", views.preview_view, name="memory-preview"),
    path("data/", views.data_view, name="my-data"),
    path("data/export", views.export_view, name="my-data-export"),
    path("data/erase", views.erase_view, name="my-data-erase"),
    path("data/erase/receipts/<uuid:receipt_id>", views.erase_receipt_view, name="erase-receipt"),
]
