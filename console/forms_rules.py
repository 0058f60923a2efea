"""Forms of the rule approval pages. They check shape only; services decide and record."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from governance.models import Project, Team
from governance.vocabulary import Level, MemoryType
from memories.services.rules import REASON_MAX_CHARS


class ApproveForm(forms.Form):
    reason = forms.CharField(
        label=_("Note (optional)"),
        required=False,
        max_length=REASON_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept encrypted with your approval; never written to the audit log."),
    )


class ReasonForm(forms.Form):
    """Rejecting and revoking: a reason is required."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=REASON_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Required. Kept encrypted with the decision; never written to the audit log."),
    )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Give a reason."))
        return reason


SCOPE_CHOICES = [
    ("tenant", _("The whole tenant")),
    ("team", _("One team")),
    ("project", _("One project")),
]
TYPE_CHOICES = [
    (MemoryType.ORGANIZATION_RULE.value, _("Organization rule")),
    (MemoryType.PROJECT_RULE.value, _("Project rule")),
]


class ProposeForm(forms.Form):
    content = forms.CharField(
        label=_("Rule"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One rule, as agents should follow it. Another admin has to approve it."),
    )
    type = forms.ChoiceField(label=_("Kind"), choices=TYPE_CHOICES, initial=MemoryType.ORGANIZATION_RULE.value)
    level = forms.ChoiceField(label=_("Applies to"), choices=SCOPE_CHOICES, initial="tenant")
    team = forms.ChoiceField(label=_("Team"), required=False, choices=())
    project = forms.ChoiceField(label=_("Project"), required=False, choices=())

    field_order = ["content", "type", "level", "team", "project"]

    def __init__(self, *args: Any, tenant_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        teams = Team.objects.filter(tenant_id=tenant_id).order_by("slug").values_list("slug", "name")
        self.fields["team"].choices = [("", _("Choose a team"))] + [(slug, f"{name} ({slug})") for slug, name in teams]
        # Only a registered project has members to give its rules to.
        projects = Project.objects.filter(tenant_id=tenant_id).order_by("slug").values_list("slug", "name")
        self.fields["project"].choices = [("", _("Choose a project"))] + [
            (slug, f"{name} ({slug})") for slug, name in projects
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        level, kind = data.get("level"), data.get("type")
        if level == Level.TEAM and not data.get("team"):
            self.add_error("team", _("Choose the team the rule applies to."))
        if level == Level.PROJECT and not data.get("project"):
            self.add_error("project", _("Choose the project the rule applies to."))
        if kind == MemoryType.PROJECT_RULE and level == Level.PROJECT:
            self.add_error("level", _("A project's own rule is an organization rule for that project."))
        return data
