"""People and teams in the console: roles (object permissions follow them), invitations (the person
joins by accepting), team membership (removal invalidates what the team granted, at once). A role
change, a withdrawal and a removal from a team show their plan first (``console.plans``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from console.access import ADMIN_PERM, ConsoleAccess, console_page
from console.forms_people import InviteForm, RoleForm, TeamCreateForm, TeamMemberForm
from console.nav import console_render
from console.plans import Change, Plan, plan_then_act
from governance.labels import ROLE_LABELS, label
from governance.models import Membership, Team, TeamMembership
from governance.selectors.invitations import invitation_open_for_tenant, invitations_open_for_tenant
from governance.services.invitations import invitation_create, invitation_withdraw
from governance.services.people import PeopleError, member_role_change, team_add, team_new
from memories.selectors import team_scope_live_count
from memories.services.teams import team_member_remove

ERROR_MESSAGES = {
    "own_role": lambda: _("You can't change your own role; ask another admin."),
    "last_admin": lambda: _("The tenant must keep at least one admin."),
    "already_invited": lambda: _("This username has a pending invitation already."),
    "already_member": lambda: _("This person is already in the tenant; change their role instead."),
    "subject_taken": lambda: _("Another person of this tenant already has that subject id."),
    "team_exists": lambda: _("A team with that slug exists already."),
    "other_tenant": lambda: _("That person is not in this tenant."),
    "invitation_closed": lambda: _("This invitation was already answered, withdrawn or has expired."),
}


def _message(exc: PeopleError) -> str:
    found = ERROR_MESSAGES.get(exc.code)
    return found() if found else str(exc)


def _page(request: HttpRequest, access: ConsoleAccess, *, status: int = 200, **forms: Any) -> HttpResponse:
    tenant = access.tenant
    memberships = list(Membership.objects.filter(tenant=tenant).select_related("user").order_by("user__username"))
    links = TeamMembership.objects.filter(team__tenant=tenant).select_related("team", "membership__user")
    teams = list(Team.objects.filter(tenant=tenant).order_by("slug"))
    by_team: dict[int, list[TeamMembership]] = {team.pk: [] for team in teams}
    for link in links.order_by("membership__user__username"):
        by_team.setdefault(link.team_id, []).append(link)
    context = {
        "console_page": "people",
        "memberships": memberships,
        "teams": [(team, by_team.get(team.pk, [])) for team in teams],
        "role_form": RoleForm(),
        "invitations": list(invitations_open_for_tenant(tenant_id=tenant.pk)),
        "invite_form": forms.get("invite_form") or InviteForm(),
        "team_form": forms.get("team_form") or TeamCreateForm(),
        "error": forms.get("error", ""),
    }
    return console_render(request, access, "console/people.html", context, status)


@console_page(ADMIN_PERM)
@require_safe
def people(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    return _page(request, access)


@console_page(ADMIN_PERM)
@require_POST
def person_role(request: HttpRequest, access: ConsoleAccess, membership_id: int) -> HttpResponse:
    membership = access.person(membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        return _page(request, access, status=400, error=_("Choose a role."))
    role = form.cleaned_data["role"]
    user = membership.user.get_username()

    def act() -> HttpResponse:
        try:
            member_role_change(membership=membership, role=role, acting=access.membership)
        except PeopleError as exc:
            return _page(request, access, status=409, error=_message(exc))
        messages.success(request, _("%(user)s is now %(role)s.") % {"user": user, "role": label(ROLE_LABELS, role)})
        return redirect("console:people")

    plan = Plan(
        title=_("Change the role of %(user)s?") % {"user": user},
        subject=_("%(user)s (subject id %(subject)s)") % {"user": user, "subject": membership.subject_id},
        changes=[]
        if role == membership.role
        else [Change(_("Role"), label(ROLE_LABELS, membership.role), label(ROLE_LABELS, role))],
        notes=[_("What they may see and do in the console follows the new role from their next page on.")],
        confirm_label=_("Yes, change the role"),
        cancel_url=reverse("console:people"),
        state=["membership", membership.pk, membership.role],
    )
    return plan_then_act(request, access, plan, act, console_page="people")


@console_page(ADMIN_PERM)
@require_POST
def person_invite(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _page(request, access, status=400, invite_form=form)
    data = form.cleaned_data
    try:
        invitation_create(
            tenant=access.tenant,
            username=data["username"],
            role=data["role"],
            subject_id=data["subject_id"],
            acting=access.membership,
        )
    except PeopleError as exc:
        form.add_error("username" if exc.code != "subject_taken" else "subject_id", _message(exc))
        return _page(request, access, status=400, invite_form=form)
    messages.success(
        request, _("%(user)s is invited. They join when they accept, within 14 days.") % {"user": data["username"]}
    )
    return redirect("console:people")


@console_page(ADMIN_PERM)
@require_POST
def invitation_withdraw_view(request: HttpRequest, access: ConsoleAccess, invitation_id: str) -> HttpResponse:
    invitation = invitation_open_for_tenant(tenant_id=access.tenant.pk, invitation_id=invitation_id)
    if invitation is None:
        raise Http404("no such invitation")

    def act() -> HttpResponse:
        try:
            invitation_withdraw(invitation=invitation, acting=access.membership)
        except PeopleError as exc:  # answered or expired in the meantime
            return _page(request, access, status=409, error=_message(exc))
        messages.success(request, _("Invitation for %(user)s withdrawn.") % {"user": invitation.username})
        return redirect("console:people")

    plan = Plan(
        title=_("Withdraw the invitation for %(user)s?") % {"user": invitation.username},
        subject=_("Invitation for %(user)s as %(role)s, by %(by)s")
        % {"user": invitation.username, "role": label(ROLE_LABELS, invitation.role), "by": invitation.invited_by},
        changes=[Change(_("Invitation"), _("Open"), _("Withdrawn"))],
        notes=[_("They can no longer accept it; invite them again to let them join.")],
        confirm_label=_("Yes, withdraw the invitation"),
        cancel_url=reverse("console:people"),
        state=["invitation", invitation.pk, invitation.state, invitation.role, invitation.expires_at],
    )
    return plan_then_act(request, access, plan, act, console_page="people")


@console_page(ADMIN_PERM)
@require_POST
def team_create_view(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    form = TeamCreateForm(request.POST)
    if not form.is_valid():
        return _page(request, access, status=400, team_form=form)
    try:
        team_new(
            tenant=access.tenant,
            slug=form.cleaned_data["slug"],
            name=form.cleaned_data["name"],
            acting=access.membership,
        )
    except PeopleError as exc:
        form.add_error("slug", _message(exc))
        return _page(request, access, status=400, team_form=form)
    messages.success(request, _("Team %(team)s created.") % {"team": form.cleaned_data["slug"]})
    return redirect("console:people")


@console_page(ADMIN_PERM)
@require_POST
def team_member_add_view(request: HttpRequest, access: ConsoleAccess, team_id: int) -> HttpResponse:
    team = get_object_or_404(Team, tenant=access.tenant, pk=team_id)
    form = TeamMemberForm(request.POST)
    if not form.is_valid():
        return _page(request, access, status=400, error=_("Choose a person."))
    membership = access.person(form.cleaned_data["membership"])
    team_add(team=team, membership=membership, is_owner=form.cleaned_data["is_owner"], acting=access.membership)
    messages.success(
        request, _("%(user)s is on team %(team)s.") % {"user": membership.user.get_username(), "team": team.slug}
    )
    return redirect("console:people")


@console_page(ADMIN_PERM)
@require_POST
def team_member_remove_view(
    request: HttpRequest, access: ConsoleAccess, team_id: int, membership_id: int
) -> HttpResponse:
    team = get_object_or_404(Team, tenant=access.tenant, pk=team_id)
    membership = access.person(membership_id)
    link = TeamMembership.objects.filter(team=team, membership=membership).first()
    if link is None:
        raise Http404("not on this team")  # nothing to remove: the missing page, as for anyone else's
    user = membership.user.get_username()

    def act() -> HttpResponse:
        invalidated = team_member_remove(team=team, membership=membership, actor=access.actor)
        messages.success(
            request,
            _("%(user)s left team %(team)s; %(count)s of their team memories were invalidated.")
            % {"user": user, "team": team.slug, "count": invalidated},
        )
        return redirect("console:people")

    count = team_scope_live_count(tenant_id=access.tenant.pk, team_slug=team.slug, subject_id=membership.subject_id)
    plan = Plan(
        title=_("Remove %(user)s from team %(team)s?") % {"user": user, "team": team.slug},
        subject=_("%(user)s on team %(team)s (%(name)s)") % {"user": user, "team": team.slug, "name": team.name},
        changes=[
            Change(
                _("Team %(team)s") % {"team": team.slug}, _("Owner") if link.is_owner else _("Member"), _("Not on it")
            ),
            Change(_("Their memories at this team's scope"), str(count), _("%(count)s invalidated") % {"count": count}),
        ],
        notes=[_("They stop receiving the team's rules at once.")],
        confirm_label=_("Yes, remove from the team"),
        cancel_url=reverse("console:people"),
        state=["team-member", team.pk, membership.pk, link.pk, link.is_owner, count],
    )
    return plan_then_act(request, access, plan, act, console_page="people")
