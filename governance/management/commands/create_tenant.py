import getpass
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.text import slugify

from governance.models import Tenant
from governance.services.tenancy import membership_set, tenant_create, user_create
from governance.vocabulary import Role


class Command(BaseCommand):
    help = "Create a tenant with the default policy, and optionally its first tenant admin."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--name", default="")
        parser.add_argument("--admin", help="username of the first tenant admin (created if missing)")

    def handle(self, *args: object, slug: str, name: str, admin: str | None, **options: object) -> None:
        if slugify(slug) != slug:
            raise CommandError(f"{slug!r} is not a valid slug: use lowercase letters, digits and '-'")
        if Tenant.objects.filter(slug=slug).exists():
            raise CommandError(f"tenant {slug!r} already exists")
        actor = f"cli:{getpass.getuser()}"
        password = None
        with transaction.atomic():
            tenant = tenant_create(slug=slug, name=name, actor=actor)
            if admin:
                user = get_user_model().objects.filter(username=admin).first()
                if user is None:
                    password = secrets.token_urlsafe(12)
                    user = user_create(username=admin, password=password)
                membership_set(tenant=tenant, user=user, role=Role.TENANT_ADMIN, actor=actor)
        self.stdout.write(f"tenant {slug} created")
        if admin:
            self.stdout.write(f"tenant admin: {admin}")
            if password:
                self.stdout.write(f"temporary password (shown once): {password}")
