"""``manage.py move_data_keys``: move data keys still in the content database into the key store."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from vault.legacy import legacy_keys_move


class Command(BaseCommand):
    help = (
        "Move the data keys of an installation whose keys are still in the content database (table "
        "memories_datakey) into the key store's database, keeping their ids, then delete and scrub them from "
        "the content database. Idempotent: run it after migrating both databases, before starting the service."
    )

    def handle(self, *args: object, **options: object) -> None:
        moved, already = legacy_keys_move()
        self.stdout.write(f"moved {moved} data keys to the key store ({already} were there already)")
