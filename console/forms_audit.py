"""Forms of the compliance pages. They check shape only; selectors and services do the rest."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from audit.events import Event
from audit.export import ExportFormat, ExportInputError, time_range_parse
from governance import labels

# The console calls the range ``start``/``end``; the parser names them as the API does.
_RANGE_FIELDS = {"from": "start", "to": "end"}
PAGE_ERROR = _("Page numbers are whole numbers from 1.")


def _page_field() -> forms.IntegerField:
    """``?page=`` of a long list: a whole number from 1 (a page past the end shows the last one)."""
    return forms.IntegerField(
        required=False, min_value=1, error_messages={"invalid": PAGE_ERROR, "min_value": PAGE_ERROR}
    )


class _TimeRangeForm(forms.Form):
    start = forms.CharField(
        label=pgettext_lazy("time range", "From"),
        required=False,
        max_length=40,
        help_text=_("UTC: 2025-03-01 or 2025-03-01T09:00"),
    )
    end = forms.CharField(
        label=pgettext_lazy("time range", "To"),
        required=False,
        max_length=40,
        help_text=_("Not included; a date alone: through that day"),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        try:
            data["start_at"], data["end_at"] = time_range_parse(start=data.get("start"), end=data.get("end"))
        except ExportInputError as exc:
            self.add_error(_RANGE_FIELDS[exc.field], _("Use an ISO 8601 date or time, with From before To."))
        return data


class AuditSearchForm(_TimeRangeForm):
    event = forms.ChoiceField(
        label=_("Event"),
        required=False,
        choices=[("", _("Any event")), *((e.value, labels.EVENT_LABELS[e]) for e in Event)],
    )
    actor = forms.CharField(label=_("Actor"), required=False, max_length=160, help_text=_("e.g. user:alice or alice"))
    memory = forms.UUIDField(label=_("Memory id"), required=False)
    subject = forms.CharField(label=_("Subject id"), required=False, max_length=128)
    page = _page_field()

    field_order = ["event", "actor", "memory", "subject", "start", "end"]

    def filters(self) -> dict[str, Any]:
        """Keyword arguments for ``audit_event_search`` (call after is_valid)."""
        data = self.cleaned_data
        return {
            "event": data.get("event") or "",
            "actor": data.get("actor") or "",
            "memory_id": data.get("memory"),
            "subject_id": data.get("subject") or "",
            "start": data.get("start_at"),
            "end": data.get("end_at"),
        }


class AuditExportForm(_TimeRangeForm):
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[(ExportFormat.JSONL.value, "JSONL"), (ExportFormat.CSV.value, "CSV")],
        initial=ExportFormat.JSONL.value,
        widget=forms.RadioSelect,
    )

    field_order = ["format", "start", "end"]


class SubjectForm(forms.Form):
    subject = forms.CharField(label=_("Subject id"), max_length=128, help_text=_("The tenant's own id for the person."))

    def clean_subject(self) -> str:
        subject = self.cleaned_data["subject"]
        if any(ord(char) < 32 for char in subject):
            raise forms.ValidationError(_("A subject id has no control characters."))
        return subject


class SubjectLookupForm(SubjectForm):
    """The subject requests page's query string: a subject to look up, and the page of receipts."""

    page = _page_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Paging through all receipts names no subject; the lookup form always sends the field.
        self.fields["subject"].required = "subject" in self.data
