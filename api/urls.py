from django.urls import include, path

urlpatterns = [
    path("", include("api.memories.urls")),
    path("", include("api.memories.context_urls")),
    path("", include("api.memories.lifecycle_urls")),
    path("", include("api.sessions.urls")),
    path("audit/", include("api.audit.urls")),
]
