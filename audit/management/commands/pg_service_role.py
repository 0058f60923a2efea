"""``manage.py pg_service_role --role NAME``: give the service's PostgreSQL role its rights, and no more."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from audit.pg_roles import service_role_grant


class Command(BaseCommand):
    help = (
        "Run as the tables' owner after migrate: grant the service role read/write on the content tables, "
        "SELECT and INSERT only on the audit log (no UPDATE, DELETE, TRUNCATE or trigger control). Idempotent."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--role", default="", help="default: MEMGOV_PG_SERVICE_ROLE")
        parser.add_argument("--database", default="", help="database alias; default: every PostgreSQL alias")

    def handle(self, *args: object, role: str, database: str, **options: object) -> None:
        role = role or settings.MEMGOV_PG_SERVICE_ROLE
        if not role:
            raise CommandError("name the role: --role NAME or MEMGOV_PG_SERVICE_ROLE")
        aliases = [database] if database else [a for a in connections if connections[a].vendor == "postgresql"]
        if not aliases:
            raise CommandError("no PostgreSQL database is configured (DATABASE_URL)")
        for alias in aliases:
            try:
                tables = service_role_grant(connections[alias], role=role)
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(f"{alias}: {role} may read and write {tables} tables; the audit log append-only")
