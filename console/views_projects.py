"""Projects in the console: create one, add and remove its members (its rules follow at once). A removal
shows its plan first (``console.plans``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from console.access import ADMIN_PERM, ConsoleAccess, console_page
from console.forms_people import ProjectCreateForm, ProjectMemberForm
from console.nav import console_render
from console.plans import Change, Plan, plan_then_act
from governance.models import Membership, Project, ProjectMembership
from governance.services.people import PeopleError
from governance.services.projects import project_create, project_member_add, project_member_remove


def _page(request: HttpRequest, access: ConsoleAccess, *, status: int = 200, **forms: Any) -> HttpResponse:
    tenant = access.tenant
    projects = list(Project.objects.filter(tenant=tenant).order_by("slug"))
    members: dict[int, list[Membership]] = {project.pk: [] for project in projects}
    links = ProjectMembership.objects.filter(project__tenant=tenant).select_related("membership__user")
    for link in links.order_by("membership__user__username"):
        members[link.project_id].append(link.membership)
    context = {
        "console_page": "projects",
        "projects": [(project, members[project.pk]) for project in projects],
        "memberships": Membership.objects.filter(tenant=tenant).select_related("user").order_by("user__username"),
        "project_form": forms.get("project_form") or ProjectCreateForm(),
        "error": forms.get("error", ""),
    }
    return console_render(request, access, "console/projects.html", context, status)


@console_page(ADMIN_PERM)
@require_safe
def projects_page(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    return _page(request, access)


@console_page(ADMIN_PERM)
@require_POST
def project_create_view(request: HttpRequest, access: ConsoleAccess) -> HttpResponse:
    form = ProjectCreateForm(request.POST)
    if not form.is_valid():
        return _page(request, access, status=400, project_form=form)
    slug = form.cleaned_data["slug"]
    try:
        project_create(tenant=access.tenant, slug=slug, name=form.cleaned_data["name"], actor=access.actor)
    except PeopleError:
        form.add_error("slug", _("A project with that id exists already."))
        return _page(request, access, status=400, project_form=form)
    messages.success(request, _("Project %(project)s created.") % {"project": slug})
    return redirect("console:projects")


@console_page(ADMIN_PERM)
@require_POST
def project_member_add_view(request: HttpRequest, access: ConsoleAccess, project_id: int) -> HttpResponse:
    project = get_object_or_404(Project, tenant=access.tenant, pk=project_id)
    form = ProjectMemberForm(request.POST)
    if not form.is_valid():
        return _page(request, access, status=400, error=_("Choose a person."))
    membership = access.person(form.cleaned_data["membership"])
    project_member_add(project=project, membership=membership, actor=access.actor)
    messages.success(
        request,
        _("%(user)s is in project %(project)s.") % {"user": membership.user.get_username(), "project": project.slug},
    )
    return redirect("console:projects")


@console_page(ADMIN_PERM)
@require_POST
def project_member_remove_view(
    request: HttpRequest, access: ConsoleAccess, project_id: int, membership_id: int
) -> HttpResponse:
    project = get_object_or_404(Project, tenant=access.tenant, pk=project_id)
    membership = access.person(membership_id)
    link = ProjectMembership.objects.filter(project=project, membership=membership).first()
    if link is None:
        raise Http404("not in this project")  # nothing to remove: the missing page, as for anyone else's
    user = membership.user.get_username()

    def act() -> HttpResponse:
        if not project_member_remove(project=project, membership=membership, actor=access.actor):
            raise Http404("not in this project")
        messages.success(
            request,
            _("%(user)s left project %(project)s; its rules are no longer given to them.")
            % {"user": user, "project": project.slug},
        )
        return redirect("console:projects")

    plan = Plan(
        title=_("Remove %(user)s from project %(project)s?") % {"user": user, "project": project.slug},
        subject=_("%(user)s in project %(project)s (%(name)s)")
        % {"user": user, "project": project.slug, "name": project.name},
        changes=[Change(_("Project %(project)s") % {"project": project.slug}, _("Member"), _("Not in it"))],
        notes=[_("The project's rules are no longer given to them, from their next read on.")],
        confirm_label=_("Yes, remove from the project"),
        cancel_url=reverse("console:projects"),
        state=["project-member", project.pk, membership.pk, link.pk],
    )
    return plan_then_act(request, access, plan, act, console_page="projects")
