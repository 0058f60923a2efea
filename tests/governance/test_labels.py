"""Every code a page can show has a label: a new audit event, role or decision without one would be shown
raw (or, for the audit filter's choices, stop the console from loading)."""

from __future__ import annotations

from django.utils import translation

from audit.events import Event
from governance import labels
from governance.models import MEMBERSHIP_ROLES
from governance.vocabulary import DecisionKind, Level, MemoryType, Sensitivity, SourceType, Status


def test_every_enumerated_code_has_a_label():
    tables = [
        (Event, labels.EVENT_LABELS),
        (MemoryType, labels.TYPE_LABELS),
        (Status, labels.STATUS_LABELS),
        (Level, labels.LEVEL_LABELS),
        (SourceType, labels.SOURCE_LABELS),
        (Sensitivity, labels.SENSITIVITY_LABELS),
        (DecisionKind, labels.DECISION_LABELS),
    ]
    missing = [f"{enum.__name__}.{code.name}" for enum, table in tables for code in enum if code not in table]
    missing += [role for role, _ in MEMBERSHIP_ROLES if role not in labels.ROLE_LABELS]
    assert not missing, f"no label for {missing}"


def test_event_labels_are_translated():
    with translation.override("zh-hans"):
        untranslated = [str(label) for label in labels.EVENT_LABELS.values() if str(label).isascii()]
    assert not untranslated, untranslated
