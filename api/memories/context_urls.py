from django.urls import path

from api.memories.context_views import MemoryContextApi
from api.memories.used_views import MemoryUsedApi

urlpatterns = [
    path("memories/context", MemoryContextApi.as_view(), name="api-memory-context"),
    path("memories/used", MemoryUsedApi.as_view(), name="api-memory-used"),
]
