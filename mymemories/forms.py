"""Forms of the "My memories" pages. They check shape only; the services decide what is allowed."""

from __future__ import annotations

import uuid

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from governance import labels
from governance.vocabulary import Level, MemoryType, Status
from memories.services.bulk import BulkAction

# What a person types to erase everything; either language's phrase is accepted.
ERASE_PHRASES = ("erase my memories", "删除我的全部记忆")
LISTABLE_STATUSES = (
    Status.ACTIVE,
    Status.PAUSED,
    Status.PENDING_CONFIRMATION,
    Status.PENDING_APPROVAL,
    Status.ARCHIVED,
    Status.EXPIRED,
)


def _choices(table: dict, codes: object, everything: object) -> list[tuple[str, object]]:
    return [("", everything)] + [(str(code), table[code]) for code in codes]  # type: ignore[attr-defined]


def _sort_field() -> forms.ChoiceField:
    """Newest first by one of these (``memories.selectors.MEMORY_ORDERS``); blank means the first."""
    return forms.ChoiceField(
        label=_("Sort by"),
        required=False,
        choices=[
            ("changed", pgettext_lazy("sort", "Last changed")),
            ("created", pgettext_lazy("sort", "Created")),
            ("used", pgettext_lazy("sort", "Last used by an agent")),
        ],
    )


class FilterForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=200, strip=True)
    type = forms.ChoiceField(label=_("Type"), required=False)
    status = forms.ChoiceField(label=_("Status"), required=False)
    scope = forms.ChoiceField(label=_("Scope"), required=False)
    # One whole group (the overview's "Show all" link); not part of the search form.
    group = forms.ChoiceField(label=_("Group"), required=False)
    sort = _sort_field()

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["type"].choices = _choices(labels.TYPE_LABELS, MemoryType, pgettext_lazy("type", "All types"))
        self.fields["status"].choices = _choices(
            labels.STATUS_LABELS, LISTABLE_STATUSES, pgettext_lazy("status", "Current")
        )
        self.fields["scope"].choices = _choices(labels.LEVEL_LABELS, Level, pgettext_lazy("scope", "All scopes"))
        self.fields["group"].choices = [("", "")] + [(key, title) for key, title, _description in labels.GROUPS]


# The most memories one bulk change takes: the plan's "yes" sends each id twice (ticked, and to change),
# and a form of more than DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000) fields is refused before any view runs.
BULK_LIMIT = 400


class MemoryIdsField(forms.Field):
    """The memories a person ticked: a list of ids (the same name repeated), at most as many as a page lists.

    Shape only: whether each is the person's own is the view's question, asked of a selector."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {
        "required": _("Select at least one memory."),
        "invalid": _("The selection holds something that is not a memory. Select the memories again."),
        "too_many": _("Select at most %(limit)d memories at a time."),
    }

    def to_python(self, value: object) -> list[uuid.UUID]:
        if value in self.empty_values:
            return []
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list | tuple):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        values = [item for item in values if item != ""]  # an empty field is no selection, not a bad id
        if len(values) > BULK_LIMIT:
            raise forms.ValidationError(self.error_messages["too_many"], code="too_many", params={"limit": BULK_LIMIT})
        ids = []
        for item in values:
            text = str(item)
            try:
                memory_id = uuid.UUID(text)
            except ValueError:
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
            if str(memory_id) != text:  # ids are written one way (lower-case, hyphens), as in the pages' URLs
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
            ids.append(memory_id)
        return list(dict.fromkeys(ids))


class BulkForm(forms.Form):
    """The list's bulk bar, then the plan page's "yes": the ids ticked, and — with ``confirm`` — the ids
    the plan said would change, so "yes" never changes a memory the plan didn't name."""

    action = forms.ChoiceField(
        label=_("Action"),
        choices=[
            (BulkAction.DELETE.value, pgettext_lazy("bulk", "Delete")),
            (BulkAction.PAUSE.value, pgettext_lazy("bulk", "Pause")),
            (BulkAction.RESUME.value, pgettext_lazy("bulk", "Resume")),
        ],
    )
    ids = MemoryIdsField(label=_("Selected memories"))
    changes = MemoryIdsField(label=_("Selected memories"), required=False)
    confirm = forms.BooleanField(required=False)
    sort = _sort_field()  # kept for the way back to the list


ADDABLE_TYPES = (MemoryType.USER_PREFERENCE, MemoryType.USER_PROFILE, MemoryType.CONSTRAINT, MemoryType.CORRECTION)


class AddForm(forms.Form):
    content = forms.CharField(
        label=_("What should be remembered"),
        max_length=settings.MEMGOV_MAX_CONTENT_CHARS,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    type = forms.ChoiceField(
        label=_("Kind"), choices=[(str(t), labels.TYPE_LABELS[t]) for t in ADDABLE_TYPES], initial="user_preference"
    )


class EditForm(forms.Form):
    content = forms.CharField(
        label=_("What should be remembered"),
        max_length=settings.MEMGOV_MAX_CONTENT_CHARS,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    reason = forms.CharField(
        label=_("Why you changed it (optional, only you and your history see it)"),
        required=False,
        max_length=300,
        strip=True,
    )


class RollbackForm(forms.Form):
    version = forms.IntegerField(min_value=1)


class SessionForm(forms.Form):
    session_id = forms.CharField(
        label=_("Session id"),
        max_length=128,
        strip=True,
        help_text=_("The id your agent shows for the conversation."),
    )


class ConfirmForm(forms.Form):
    confirm = forms.BooleanField(required=False)


class EraseForm(forms.Form):
    phrase = forms.CharField(label=_("Type the phrase to confirm"), max_length=100, strip=True)

    def clean_phrase(self) -> str:
        phrase = " ".join(self.cleaned_data["phrase"].split()).lower()
        if phrase not in ERASE_PHRASES:
            raise forms.ValidationError(_("The phrase doesn't match. Nothing was erased."))
        return phrase


class PreviewForm(forms.Form):
    query = forms.CharField(
        label=_("What you might ask the agent"),
        max_length=500,
        strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    project = forms.CharField(label=_("Project (optional)"), required=False, max_length=128, strip=True)
    session_id = forms.CharField(label=_("Session (optional)"), required=False, max_length=128, strip=True)


class CommandForm(forms.Form):
    """The command box. The session is picked from the person's own sessions, never typed: a person
    can't know a session id, and one that isn't theirs is refused here with a message naming the field."""

    text = forms.CharField(
        label=_("Tell memgov what to do"),
        max_length=500,
        strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    session_id = forms.ChoiceField(label=_("Session (for session commands)"), required=False)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
    memory_ids = forms.CharField(required=False, widget=forms.HiddenInput, max_length=40000)

    def __init__(self, *args: object, sessions: list[tuple[str, str]] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["session_id"].choices = [("", pgettext_lazy("session", "None")), *(sessions or [])]

    def selected_ids(self) -> list[str] | None:
        raw = self.cleaned_data.get("memory_ids") or ""
        ids = [part for part in raw.split(",") if part]
        return ids or None
