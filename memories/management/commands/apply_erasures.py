"""``manage.py apply_erasures``: after a restore, erase again every subject the tombstone list names."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from dbkit.scrub import pg_vacuum
from governance.models import Tenant
from memories.lifecycle.purge import PURGED_TABLES
from memories.services.subjects import ERASED_TABLES, subject_erase
from vault.erasure import tombstones
from vault.models import DataKey
from vault.router import KEYS_DB


class Command(BaseCommand):
    help = (
        "Re-apply every recorded erasure (run after restoring a backup, before starting the service): destroys "
        "a restored data key and deletes the subject's rows again. Idempotent. --vacuum, run as the tables' "
        "owner on PostgreSQL, also vacuums what erasure and purge touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--vacuum", action="store_true", help="PostgreSQL: VACUUM the touched tables (as owner)")

    def handle(self, *args: object, vacuum: bool, **options: object) -> None:
        known = set(Tenant.objects.values_list("pk", flat=True))
        applied = 0
        found = tombstones()
        for tombstone in found:
            if tombstone.tenant_id not in known:
                continue  # the tenant itself is gone from this database
            receipt = subject_erase(
                tenant_id=tombstone.tenant_id, user_id=tombstone.owner, actor="system:apply_erasures", reapply=tombstone
            )
            if receipt is not None:
                applied += 1
                self.stdout.write(
                    f"tenant {tombstone.tenant_id}: erased again ({receipt.memories_erased} memories, "
                    f"data key {'destroyed' if receipt.key_destroyed else 'already gone'}; receipt {receipt.id})"
                )
        self.stdout.write(f"{len(found)} erasures on record, {applied} re-applied")
        if vacuum:
            done = pg_vacuum({*ERASED_TABLES, *PURGED_TABLES}) + pg_vacuum([DataKey], using=KEYS_DB, full=True)
            self.stdout.write(f"vacuumed: {', '.join(done) if done else 'nothing (SQLite, or not the owner)'}")
