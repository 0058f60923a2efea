"""Who may use the console, and for which tenant. Everyone else gets the 404 of a missing page.

The permissions themselves are ``governance.permissions``; this adds the console's view decorator.

Access is the person's django-guardian permission on their Tenant: ``governance.audit_tenant``
(compliance officers) for audit and subject pages, ``governance.administer_tenant`` (tenant admins) for
admin pages. The two are deliberately separate: an admin is not a compliance officer, so the people
whose actions the log records are not the ones who search and export it (separation of duties).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from governance.models import Membership, Tenant
from governance.permissions import ADMIN_PERM, AUDIT_PERM, CONSOLE_PERMS, console_perms

P = ParamSpec("P")


@dataclass(frozen=True)
class ConsoleAccess:
    """The membership a person uses the console through, and what it lets them do there."""

    membership: Membership
    perms: frozenset[str]

    @property
    def tenant(self) -> Tenant:
        return self.membership.tenant

    @property
    def actor(self) -> str:
        return f"user:{self.membership.user.get_username()}"

    def person(self, membership_id: int) -> Membership:
        """A person of this console's tenant (404 for anyone else's, as for a missing one)."""
        return get_object_or_404(
            Membership.objects.select_related("user", "tenant"), tenant=self.tenant, pk=membership_id
        )

    @property
    def can_audit(self) -> bool:
        return AUDIT_PERM in self.perms

    @property
    def can_administer(self) -> bool:
        return ADMIN_PERM in self.perms


def console_access_for(user: Any) -> ConsoleAccess | None:
    """The first of the person's memberships that grants any console permission, or None.

    Cached on the user object: base.html asks on every page for the "Console" link.
    """
    cached = getattr(user, "_memgov_console_access", False)
    if cached is not False:
        return cached
    found = console_perms(user)
    access = None if found is None else ConsoleAccess(membership=found[0], perms=found[1])
    if getattr(user, "is_authenticated", False):
        user._memgov_console_access = access
    return access


def console_page(
    *perms: str,
) -> Callable[[Callable[Concatenate[HttpRequest, ConsoleAccess, P], HttpResponse]], Callable[..., HttpResponse]]:
    """Log-in required, then any of ``perms`` on the person's tenant, else Http404 (the missing-page 404).

    The view receives the ConsoleAccess after the request.
    """
    wanted = frozenset(perms or CONSOLE_PERMS)

    def decorate(
        view: Callable[Concatenate[HttpRequest, ConsoleAccess, P], HttpResponse],
    ) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
            access = console_access_for(request.user)
            if access is None or not (access.perms & wanted):
                raise Http404("no such page")
            return view(request, access, *args, **kwargs)

        return wrapped

    return decorate
