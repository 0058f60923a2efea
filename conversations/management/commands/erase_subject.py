import getpass

from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.services.erasure import subject_erase
from governance.models import Tenant


class Command(BaseCommand):
    help = (
        "Erase a subject: destroy their data key (crypto-shredding), purge their memories and sessions, "
        "write a receipt."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", required=True)
        parser.add_argument("--user-id", required=True, dest="user_id")

    def handle(self, *args: object, tenant: str, user_id: str, **options: object) -> None:
        tenant_row = Tenant.objects.filter(slug=tenant).first()
        if tenant_row is None:
            raise CommandError(f"no tenant {tenant!r}")
        erased = subject_erase(tenant_id=tenant_row.pk, user_id=user_id, actor=f"cli:{getpass.getuser()}")
        receipt = erased.receipt
        self.stdout.write(
            f"erasure receipt {receipt.id}: {receipt.memories_erased} memories, {receipt.versions_erased} versions, "
            f"{erased.sessions_erased} sessions ({erased.events_erased} events), "
            f"data key {'destroyed' if receipt.key_destroyed else 'did not exist'}"
        )
