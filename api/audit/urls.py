from django.urls import path

from api.audit import views

urlpatterns = [
    path("export", views.AuditExportApi.as_view(), name="api-audit-export"),
]
