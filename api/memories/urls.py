from django.urls import path

from api.memories import commands_views, views, write_views

urlpatterns = [
    path("memories/write", write_views.MemoryWriteApi.as_view(), name="api-memory-write"),
    path(
        "confirmations/<uuid:confirmation_id>/accept",
        write_views.ConfirmationAcceptApi.as_view(),
        name="api-confirmation-accept",
    ),
    path(
        "confirmations/<uuid:confirmation_id>/decline",
        write_views.ConfirmationDeclineApi.as_view(),
        name="api-confirmation-decline",
    ),
    path("memories", views.MemoryListApi.as_view(), name="api-memory-list"),
    path("memories/<uuid:memory_id>", views.MemoryDetailApi.as_view(), name="api-memory-detail"),
    path("memories/<uuid:memory_id>/pause", views.MemoryPauseApi.as_view(), name="api-memory-pause"),
    path("memories/<uuid:memory_id>/resume", views.MemoryResumeApi.as_view(), name="api-memory-resume"),
    path("memories/<uuid:memory_id>/rollback", views.MemoryRollbackApi.as_view(), name="api-memory-rollback"),
    path("commands", commands_views.CommandApi.as_view(), name="api-commands"),
]
