from django.urls import path

from api.memories.context_views import MemoryContextApi

urlpatterns = [
    path("memories/context", MemoryContextApi.as_view(), name="api-memory-context"),
]
