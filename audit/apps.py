from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _regrant_service_role(sender: AppConfig, *, using: str, **kwargs: Any) -> None:
    """After ``migrate`` (as the owner), keep the service role's grants in step with the tables."""
    from django.conf import settings
    from django.db import connections

    from audit.pg_roles import service_role_grant

    role = getattr(settings, "MEMGOV_PG_SERVICE_ROLE", "")
    if role and connections[using].vendor == "postgresql":
        service_role_grant(connections[using], role=role)


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit"

    def ready(self) -> None:
        # Once per migrate run: the audit app's own signal, sent after every app has migrated.
        post_migrate.connect(_regrant_service_role, sender=self, dispatch_uid="memgov-regrant-service-role")
