from django.urls import path

from memories.api import views

urlpatterns = [
    path("memories", views.MemoryListApi.as_view(), name="api-memory-list"),
    path("memories/<uuid:memory_id>", views.MemoryDetailApi.as_view(), name="api-memory-detail"),
    path("memories/<uuid:memory_id>/pause", views.MemoryPauseApi.as_view(), name="api-memory-pause"),
    path("memories/<uuid:memory_id>/resume", views.MemoryResumeApi.as_view(), name="api-memory-resume"),
    path("memories/<uuid:memory_id>/rollback", views.MemoryRollbackApi.as_view(), name="api-memory-rollback"),
]
