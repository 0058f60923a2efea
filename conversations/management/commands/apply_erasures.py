"""``manage.py apply_erasures``: after a restore, erase again every subject the tombstone list names."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from conversations.services.erasure import ERASED_TABLES as SESSION_TABLES
from conversations.services.erasure import subject_erasure_reapply
from dbkit.scrub import pg_vacuum
from governance.models import Tenant
from memories.lifecycle.purge import PURGED_TABLES
from memories.services.subjects import ERASED_TABLES
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
            erased = subject_erasure_reapply(tombstone=tombstone, actor="system:apply_erasures")
            if erased is None:
                continue
            applied += 1
            receipt = erased.receipt
            if receipt is None:
                memories = "no memories, data key already gone"
            else:
                key = "destroyed" if receipt.key_destroyed else "already gone"
                memories = f"{receipt.memories_erased} memories, data key {key}; receipt {receipt.id}"
            self.stdout.write(
                f"tenant {tombstone.tenant_id}: erased again ({memories}; {erased.sessions_erased} sessions)"
            )
        self.stdout.write(f"{len(found)} erasures on record, {applied} re-applied")
        if vacuum:
            content = pg_vacuum({*ERASED_TABLES, *SESSION_TABLES, *PURGED_TABLES})
            done = content + pg_vacuum([DataKey], using=KEYS_DB, full=True)
            self.stdout.write(f"vacuumed: {', '.join(done) if done else 'nothing (SQLite, or not the owner)'}")
