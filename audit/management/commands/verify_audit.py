from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.verify import ChainReport, verify_chain
from governance.models import Tenant


def _ok_line(slug: str, report: ChainReport) -> str:
    checkpoint = report.checkpoint
    compared = (
        f"matches checkpoint #{checkpoint.seq} of {checkpoint.at}"
        if checkpoint
        else "no checkpoint yet (nothing outside the database to compare with)"
    )
    return f"{slug}: OK, {report.events} events; {compared}"


class Command(BaseCommand):
    help = (
        "Walk the audit hash chains and compare each with its latest signed checkpoint; exit 1 naming what is "
        "wrong (an edited, removed or reordered event; truncated after #N; rewritten; head missing)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tenant", help="slug; all tenants when omitted")

    def handle(self, *args: object, tenant: str | None, **options: object) -> None:
        tenants = Tenant.objects.order_by("slug")
        if tenant:
            tenants = tenants.filter(slug=tenant)
            if not tenants.exists():
                raise CommandError(f"no tenant {tenant!r}")
        failed = False
        for row in tenants:
            report = verify_chain(tenant_id=row.pk)
            if report.ok:
                self.stdout.write(_ok_line(row.slug, report))
                continue
            failed = True
            if report.first_bad_id is not None:
                where = f" at event #{report.first_bad_seq} (id {report.first_bad_id})"
            elif report.first_bad_seq is not None:
                where = f" at event #{report.first_bad_seq}"
            else:
                where = ""
            self.stdout.write(f"{row.slug}: TAMPERED{where}: {report.problem}")
        if failed:
            raise SystemExit(1)
