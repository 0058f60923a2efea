"""The policy form: the document's knobs as fields, turned back into a document for the service.

Fields check shape (numbers, ranges); ``policy_version_create`` validates the whole document with the
same checks the pipeline's snapshot uses, and its error (naming a document key) lands on the field.
"""

from __future__ import annotations

import copy
from dataclasses import fields as dataclass_fields
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from governance import labels
from governance.alerting import AlertThresholds, alert_thresholds_from_document
from governance.labels import TYPE_LABELS
from governance.pipeline.base import PolicySnapshot
from governance.policy import PolicyDocumentError
from governance.services.policy import MAX_DAYS, MAX_SNAPSHOT_INTERVAL, MAX_TTL_SECONDS, REASON_MAX_CHARS
from governance.vocabulary import Level, MemoryType

# Lifetimes are typed as a whole number of hours or days (the document keeps seconds).
UNIT_SECONDS = {"hours": 3600, "days": 86_400}
UNIT_CHOICES = [("hours", _("hours")), ("days", _("days"))]
LIFETIMES = ("high_sensitivity_ttl", "pending_confirmation_ttl")


def lifetime_initial(seconds: int | None) -> tuple[int | None, str]:
    """Seconds as (amount, unit): days when whole days, else hours (rounded up to the next whole hour)."""
    if seconds is None:
        return None, "days"
    if seconds % UNIT_SECONDS["days"] == 0:
        return seconds // UNIT_SECONDS["days"], "days"
    return -(-seconds // UNIT_SECONDS["hours"]), "hours"


def lifetime_words(seconds: int | None) -> str:
    """7 days / 12 hours / no expiry: how a lifetime reads on the page."""
    if seconds is None:
        return str(_("no expiry"))
    amount, unit = lifetime_initial(seconds)
    if unit == "days":
        return ngettext("%(count)d day", "%(count)d days", amount) % {"count": amount}
    return ngettext("%(count)d hour", "%(count)d hours", amount) % {"count": amount}


TOP_LEVEL = {
    "high_sensitivity_ttl": (
        _("High-sensitivity TTL"),
        _("How long high-sensitivity content kept in a session or task lives."),
    ),
    "pending_confirmation_ttl": (
        _("Confirmation TTL"),
        _("How long a request for confirmation or approval waits before it lapses."),
    ),
    "max_content_chars": (_("Longest memory (characters)"), _("Longer candidates are refused.")),
    "max_unused_days": (_("Archive after unused (days)"), _("Memories not used for this many days are archived.")),
    "purge_grace_days": (_("Purge grace period (days)"), _("Deleted content is purged for good after this many days.")),
    "session_retention_days": (
        _("Session history kept (days)"),
        _("An ended session's history is deleted for good this many days after it ended."),
    ),
    "session_snapshot_interval": (
        _("State snapshot every (events)"),
        _("A session's full state is stored every this many events; time travel replays at most that many."),
    ),
}
TOP_LEVEL_MOST = {
    "high_sensitivity_ttl": MAX_TTL_SECONDS,
    "pending_confirmation_ttl": MAX_TTL_SECONDS,
    "max_unused_days": MAX_DAYS,
    "purge_grace_days": MAX_DAYS,
    "session_retention_days": MAX_DAYS,
    "session_snapshot_interval": MAX_SNAPSHOT_INTERVAL,
}

ALERT_LABELS = {
    "window_hours": _("Alert window (hours)"),
    "baseline_windows": _("Baseline (windows before it)"),
    "write_spike_factor": _("Write spike: × baseline"),
    "write_spike_min_writes": _("Write spike: at least (writes)"),
    "reject_rate_drop_factor": _("Reject-rate drop: below × baseline"),
    "reject_rate_min_writes": _("Reject-rate drop: at least (writes)"),
    "sensitive_spike_factor": _("Sensitive detections spike: × baseline"),
    "sensitive_spike_min_detections": _("Sensitive detections spike: at least"),
    "cross_scope_reads_max": _("Cross-scope reads tolerated"),
    "stale_uses_max": _("Stale memory uses tolerated"),
    "context_token_growth_factor": _("Context tokens: × baseline mean"),
    "context_token_min_requests": _("Context tokens: at least (requests)"),
}
_FLOAT_ALERTS = {f.name for f in dataclass_fields(AlertThresholds) if f.type in ("float", float)}


def _ttl_field(name: str) -> str:
    return f"ttl_{name}"


def _alert_field(name: str) -> str:
    return f"alerts_{name}"


def extractor_choices() -> list[tuple[str, object]]:
    """The policy's ``extractor`` values in words; the default says what it means on this deployment."""
    default = _("the language model") if settings.MEMGOV_EXTRACTOR_URL else _("the rules")
    return [
        ("default", _("This deployment's default (now: %(which)s)") % {"which": default}),
        ("rules", _("Rules only")),
        ("llm", _("The language model this deployment has set up")),
    ]


def form_field_for(document_key: str) -> str | None:
    """The form field a document key (as named in a PolicyDocumentError) belongs to."""
    if document_key.startswith("ttl_by_type."):
        return _ttl_field(document_key.split(".", 1)[1])
    if document_key.startswith("alerts."):
        return _alert_field(document_key.split(".", 1)[1])
    if document_key in TOP_LEVEL or document_key in ("min_inference_confidence", "extractor"):
        return document_key
    return None


class PolicyForm(forms.Form):
    """Built from the document in force; ``document()`` is that document with the form's values."""

    def __init__(self, *args: Any, current: dict[str, Any], **kwargs: Any) -> None:
        self.current = current
        try:
            alerts = alert_thresholds_from_document(current)
        except PolicyDocumentError:
            alerts = AlertThresholds()
        super().__init__(*args, **kwargs)
        initial: dict[str, Any] = self.initial
        ttl = current.get("ttl_by_type") or {}
        for memory_type in MemoryType:
            name = _ttl_field(memory_type.value)
            self._lifetime(name, TYPE_LABELS.get(memory_type, memory_type.value), ttl.get(memory_type.value), "")
        for key, (label, help_text) in TOP_LEVEL.items():
            # A document stored before a key existed is in force with the key's default.
            value = current.get(key, getattr(PolicySnapshot, key, None))
            if key in LIFETIMES:
                self._lifetime(key, label, value, help_text, required=True)
                continue
            self.fields[key] = forms.IntegerField(
                label=label, help_text=help_text, min_value=1, max_value=TOP_LEVEL_MOST.get(key)
            )
            initial[key] = value
        self.fields["min_inference_confidence"] = forms.FloatField(
            label=_("Minimum inference confidence"),
            min_value=0,
            max_value=1,
            help_text=_("Below this, an agent's inference is rejected; at or above, the person confirms it."),
            widget=forms.NumberInput(attrs={"step": "0.05"}),
        )
        initial["min_inference_confidence"] = current.get("min_inference_confidence")
        self.fields["extractor"] = forms.ChoiceField(
            label=_("Memories learned from conversations by"),
            choices=extractor_choices(),
            help_text=_("Rules only: no conversation is sent to a language model, whatever is set up."),
        )
        initial["extractor"] = current.get("extractor", PolicySnapshot.extractor)
        for spec in dataclass_fields(AlertThresholds):
            name = _alert_field(spec.name)
            if spec.name in _FLOAT_ALERTS:
                self.fields[name] = forms.FloatField(
                    label=ALERT_LABELS[spec.name], min_value=0, widget=forms.NumberInput(attrs={"step": "0.1"})
                )
            else:
                self.fields[name] = forms.IntegerField(label=ALERT_LABELS[spec.name], min_value=0)
            initial[name] = getattr(alerts, spec.name)
        self.fields["reason"] = forms.CharField(
            label=_("Why this change"),
            max_length=REASON_MAX_CHARS,
            help_text=_("Required. Kept with the version."),
            widget=forms.Textarea(attrs={"rows": 2}),
        )

    def _lifetime(self, name: str, label: object, seconds: int | None, help_text: object, *, required: bool = False):
        """A lifetime as two fields: a whole number (``name``) and its unit (``name_unit``), with the value
        in force in words beside them; ``clean`` turns them into seconds."""
        in_force = _("In force: %(lifetime)s.") % {"lifetime": lifetime_words(seconds)}
        self.fields[name] = forms.IntegerField(
            label=label,
            required=required,
            min_value=1,
            max_value=MAX_TTL_SECONDS // UNIT_SECONDS["hours"],
            help_text=f"{help_text} {in_force}".strip(),
            widget=forms.NumberInput(attrs={"placeholder": _("no expiry")} if not required else {}),
        )
        self.fields[f"{name}_unit"] = forms.ChoiceField(label=_("Unit"), choices=UNIT_CHOICES)
        self.initial[name], self.initial[f"{name}_unit"] = lifetime_initial(seconds)

    def _lifetime_names(self) -> list[str]:
        return [*(_ttl_field(t.value) for t in MemoryType), *LIFETIMES]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in self._lifetime_names():
            amount, unit = data.get(name), data.get(f"{name}_unit")
            if amount is None or unit is None:
                continue
            seconds = amount * UNIT_SECONDS[unit]
            if seconds > MAX_TTL_SECONDS:
                self.add_error(name, _("At most %(days)d days.") % {"days": MAX_TTL_SECONDS // UNIT_SECONDS["days"]})
                continue
            data[name] = seconds
        return data

    @property
    def ttl_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[_ttl_field(t.value)], self[f"{_ttl_field(t.value)}_unit"]) for t in MemoryType]

    @property
    def lifetime_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[name], self[f"{name}_unit"]) for name in LIFETIMES]

    @property
    def general_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("min_inference_confidence", *TOP_LEVEL, "extractor") if name not in LIFETIMES]

    @property
    def alert_fields(self) -> list[forms.BoundField]:
        return [self[_alert_field(spec.name)] for spec in dataclass_fields(AlertThresholds)]

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Say why the policy changes."))
        return reason

    def clean_extractor(self) -> str:
        value = self.cleaned_data["extractor"]
        if value == "llm" and not settings.MEMGOV_EXTRACTOR_URL:
            raise forms.ValidationError(
                _("No language model is set up here (MEMGOV_EXTRACTOR_URL): choose the rules or the default.")
            )
        return value

    def document(self) -> dict[str, Any]:
        """The document in force with this form's values (keys the form doesn't know are kept)."""
        data = self.cleaned_data
        document = copy.deepcopy(self.current)
        document["ttl_by_type"] = {t.value: data[_ttl_field(t.value)] for t in MemoryType}
        for key in (*TOP_LEVEL, "min_inference_confidence", "extractor"):
            document[key] = data[key]
        alerts = dict(document.get("alerts") or {})
        for spec in dataclass_fields(AlertThresholds):
            value = data[_alert_field(spec.name)]
            alerts[spec.name] = float(value) if spec.name in _FLOAT_ALERTS else value
        document["alerts"] = alerts
        return document


class RestoreForm(forms.Form):
    version = forms.IntegerField(
        min_value=1,
        error_messages={code: _("Choose a version to restore.") for code in ("required", "invalid", "min_value")},
    )
    reason = forms.CharField(
        max_length=REASON_MAX_CHARS, error_messages={"required": _("Give a reason to restore a version.")}
    )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Say why the earlier version comes back."))
        return reason


TYPE_CHOICES = [(t.value, labels.TYPE_LABELS[t]) for t in MemoryType]
LEVEL_CHOICES = [(level.value, labels.LEVEL_LABELS[level]) for level in Level]


class AgentRightsForm(forms.Form):
    allowed_types = forms.MultipleChoiceField(
        label=_("Memory types it may write"), choices=TYPE_CHOICES, required=False, widget=forms.CheckboxSelectMultiple
    )
    allowed_levels = forms.MultipleChoiceField(
        label=_("Scopes it may write"), choices=LEVEL_CHOICES, required=False, widget=forms.CheckboxSelectMultiple
    )
