from django.urls import path

from audit.api import views

urlpatterns = [
    path("export", views.AuditExportApi.as_view(), name="api-audit-export"),
]
