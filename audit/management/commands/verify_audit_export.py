"""``manage.py verify_audit_export FILE``: check an audit export offline; exit 1 naming the first bad line."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.export_verify import export_file_verify
from audit.signing import key_id, public_key_parse, signing_key_load


class Command(BaseCommand):
    help = (
        "Check an audit export (JSONL or CSV) offline: every event's hash, the links between them, and the "
        "signed manifest. Needs no database; the key comes from MEMGOV_AUDIT_SIGNING_KEY or --public-key."
    )
    # Offline by design: no system checks or migration checks, which could touch the database.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the exported .jsonl or .csv file")
        parser.add_argument(
            "--public-key",
            help="base64 Ed25519 public key to verify with (shown on the console's export page); "
            "by default it is derived from MEMGOV_AUDIT_SIGNING_KEY",
        )

    def handle(self, *args: object, file: Path, public_key: str | None, **options: object) -> None:
        try:
            key = public_key_parse(public_key, origin="--public-key") if public_key else None
            key = key or signing_key_load(create=False).public_key()
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from exc
        if not file.is_file():
            raise CommandError(f"{file}: no such file")
        check = export_file_verify(file, public_key=key)
        if not check.ok:
            self.stdout.write(f"FAILED at line {check.line}: {check.problem}")
            raise SystemExit(1)
        manifest = check.manifest or {}
        span = f"#{manifest.get('first_seq')}-#{manifest.get('last_seq')}" if check.events else "no events"
        self.stdout.write(
            f"OK: {check.events} events ({span}) of tenant {manifest.get('tenant')}, {check.format}; "
            f"signature valid (key {key_id(key)}); chain head #{(manifest.get('chain_head') or {}).get('seq')}"
        )
