import getpass

from django.core.management.base import BaseCommand, CommandError, CommandParser

from governance.models import AgentClient, Tenant
from governance.services.tenancy import agent_key_create


class Command(BaseCommand):
    help = "Create an agent API key for a tenant. The key alone is the last line printed, shown once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", required=True)
        parser.add_argument("--name", required=True)
        parser.add_argument(
            "--scopes",
            default=None,
            help="comma-separated scopes the key may call (default: all; e.g. memory.read for a retrieval agent)",
        )

    def handle(self, *args: object, tenant: str, name: str, scopes: str | None, **options: object) -> None:
        tenant_row = Tenant.objects.filter(slug=tenant).first()
        if tenant_row is None:
            raise CommandError(f"no tenant {tenant!r}")
        if AgentClient.objects.filter(tenant=tenant_row, name=name).exists():
            raise CommandError(f"tenant {tenant} already has an agent named {name!r}")
        try:
            chosen = None if scopes is None else [s.strip() for s in scopes.split(",") if s.strip()]
            client, key = agent_key_create(
                tenant=tenant_row, name=name, actor=f"cli:{getpass.getuser()}", scopes=chosen
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"agent {client.name} of tenant {tenant}: store this key now, it is not shown again")
        self.stdout.write(key)
