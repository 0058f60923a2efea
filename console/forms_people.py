"""Forms of the agents and people pages (shape only)."""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from governance import labels
from governance.models import MEMBERSHIP_ROLES, all_agent_scopes
from governance.scopes import SCOPE_TABLE

ROLE_CHOICES = [(value, labels.ROLE_LABELS[value]) for value, _label in MEMBERSHIP_ROLES]
SCOPE_CHOICES = [(grant.scope.value, grant.scope.value) for grant in SCOPE_TABLE]


def _scopes_field() -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=_("What the key may call"),
        choices=SCOPE_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Nothing ticked: the key can call nothing. A retrieval agent needs memory.read only."),
    )


class AgentCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=100,
        validators=[RegexValidator(r"^[a-z0-9][a-z0-9_.-]{0,99}$", _("Lowercase letters, digits, '-', '_' or '.'."))],
        help_text=_("e.g. support-bot. Lowercase letters, digits, '-', '_' or '.'."),
    )
    scopes = _scopes_field()

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("initial", {"scopes": all_agent_scopes()})
        super().__init__(*args, **kwargs)


class AgentScopesForm(forms.Form):
    scopes = _scopes_field()


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES)


class InviteForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        validators=[RegexValidator(r"^[^\x00-\x1f]*$", _("No control characters."))],
        help_text=_("The person's account. They join when they accept the invitation, within 14 days."),
    )
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial="member")
    subject_id = forms.CharField(
        label=_("Subject id"),
        max_length=128,
        required=False,
        validators=[RegexValidator(r"^[^\x00-\x1f]*$", _("No control characters."))],
        help_text=_("The tenant's own id for the person; empty: the username."),
    )


class TeamMemberForm(forms.Form):
    membership = forms.IntegerField(min_value=1)
    is_owner = forms.BooleanField(label=_("Team owner"), required=False)


class TeamCreateForm(forms.Form):
    slug = forms.SlugField(label=_("Slug"), max_length=63)
    name = forms.CharField(label=_("Name"), max_length=200, required=False)


class ProjectCreateForm(forms.Form):
    slug = forms.CharField(
        label=_("Project id"),
        max_length=128,
        # An id, as the audit log records it (letters, digits and _ . : @ / + = # -): no free text.
        validators=[RegexValidator(r"^[A-Za-z0-9_.:@/+=#-]+$", _("Letters, digits and _ . : @ / + = # - only."))],
        help_text=_("Exactly as agents name it in a request's scope, e.g. dispatch-docs."),
    )
    name = forms.CharField(label=_("Name"), max_length=200, required=False)


class ProjectMemberForm(forms.Form):
    membership = forms.IntegerField(min_value=1)
