from django.urls import path

from api.memories import lifecycle_views

urlpatterns = [
    path("tasks/<str:task_id>/complete", lifecycle_views.TaskCompleteApi.as_view(), name="api-task-complete"),
]
