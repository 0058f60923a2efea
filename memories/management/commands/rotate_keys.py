import getpass

from django.core.management.base import BaseCommand

from audit.events import Event
from audit.services import audit_record
from governance.models import Tenant
from vault.datakeys import forget_cached_keys, rewrap_all
from vault.keyring import get_keyring, reset_keyring


class Command(BaseCommand):
    help = (
        "Re-wrap every data key under the newest master key version. Add the new key (VERSION:BASE64) "
        "to MEMGOV_MASTER_KEY(_FILE) first; remove the old one only after this has run."
    )

    def handle(self, *args: object, **options: object) -> None:
        reset_keyring()
        forget_cached_keys()
        version = get_keyring().current_version
        changed = rewrap_all()
        actor = f"cli:{getpass.getuser()}"
        for tenant_id in Tenant.objects.values_list("pk", flat=True):
            audit_record(
                tenant_id=tenant_id,
                event=Event.KEYS_ROTATED,
                actor=actor,
                details={"master_key_version": version, "rewrapped": changed},
            )
        self.stdout.write(f"{changed} data keys re-wrapped under master key version {version}")
