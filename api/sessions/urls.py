from django.urls import path

from api.sessions import handoff_views, history_views, task_views, views

urlpatterns = [
    path("sessions", views.SessionListApi.as_view(), name="api-session-list"),
    path("sessions/<uuid:session_id>", views.SessionDetailApi.as_view(), name="api-session-detail"),
    path("sessions/<uuid:session_id>/events", history_views.EventListApi.as_view(), name="api-session-events"),
    path("sessions/<uuid:session_id>/pop", history_views.PopApi.as_view(), name="api-session-pop"),
    path("sessions/<uuid:session_id>/fork", history_views.ForkApi.as_view(), name="api-session-fork"),
    path("sessions/<uuid:session_id>/state", history_views.StateApi.as_view(), name="api-session-state"),
    path("sessions/<uuid:session_id>/compact", history_views.CompactApi.as_view(), name="api-session-compact"),
    path("sessions/<uuid:session_id>/context", history_views.ContextApi.as_view(), name="api-session-context"),
    path("tasks/<str:task_id>", task_views.TaskStateApi.as_view(), name="api-task-state"),
    path("handoffs", handoff_views.HandoffCreateApi.as_view(), name="api-handoff-create"),
    path("handoffs/<uuid:handoff_id>", handoff_views.HandoffDetailApi.as_view(), name="api-handoff-detail"),
]
