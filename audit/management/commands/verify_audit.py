from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.verify import verify_chain
from governance.models import Tenant


class Command(BaseCommand):
    help = "Walk the audit hash chains; exit 1 naming the first changed, removed or reordered event."

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
                self.stdout.write(f"{row.slug}: OK, {report.events} events")
            else:
                failed = True
                where = f"event #{report.first_bad_seq} (id {report.first_bad_id})"
                self.stdout.write(f"{row.slug}: TAMPERED at {where}: {report.problem}")
        if failed:
            raise SystemExit(1)
