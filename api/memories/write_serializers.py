"""Shapes of memory.write and its decision. Shape only: the pipeline applies the policy."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from governance.pipeline.base import Candidate, Scope
from governance.vocabulary import Level, MemoryType, Sensitivity, SourceType

# A hard ceiling on what is even parsed; the tenant's policy sets the real limit (default 2,000).
MAX_CONTENT_CHARS = 20_000
ID_FIELD = {"max_length": 128, "required": False, "allow_blank": True, "default": ""}


def _values(enum: type) -> list[str]:
    return [member.value for member in enum]


class ScopeSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=_values(Level))
    user_id = serializers.CharField(**ID_FIELD)
    team = serializers.CharField(**ID_FIELD)
    project = serializers.CharField(**ID_FIELD)
    session_id = serializers.CharField(**ID_FIELD)
    task_id = serializers.CharField(**ID_FIELD)


class SourceSerializer(serializers.Serializer):
    source_type = serializers.ChoiceField(choices=_values(SourceType))
    source_message_id = serializers.CharField(**ID_FIELD)


class WriteRequestSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=_values(MemoryType), required=False, allow_null=True, default=None)
    content = serializers.CharField(max_length=MAX_CONTENT_CHARS, trim_whitespace=False, allow_blank=True)
    scope = ScopeSerializer()
    source = SourceSerializer()
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0, required=False, default=1.0)
    sensitivity = serializers.ChoiceField(choices=_values(Sensitivity), required=False, allow_null=True, default=None)
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    on_behalf_of = serializers.CharField(**ID_FIELD)
    session_id = serializers.CharField(**ID_FIELD)
    requires_confirmation = serializers.BooleanField(required=False, default=False)


def candidate_from(data: dict[str, Any]) -> Candidate:
    """The pipeline's candidate from WriteRequestSerializer's validated data."""
    return Candidate(
        content=data["content"],
        scope=Scope(**data["scope"]),
        source_type=SourceType(data["source"]["source_type"]),
        type=MemoryType(data["type"]) if data["type"] else None,
        source_message_id=data["source"]["source_message_id"],
        confidence=data["confidence"],
        sensitivity=Sensitivity(data["sensitivity"]) if data["sensitivity"] else None,
        expires_at=data["expires_at"],
        requires_confirmation=data["requires_confirmation"],
    )


class DecisionSerializer(serializers.Serializer):
    decision = serializers.CharField()
    reason_code = serializers.CharField()
    reason = serializers.CharField()
    memory_id = serializers.UUIDField(allow_null=True)
    confirmation_id = serializers.UUIDField(allow_null=True)
    confirm_by = serializers.CharField(allow_null=True)
    type = serializers.CharField(allow_null=True)
    sensitivity = serializers.CharField()
    entity_types = serializers.ListField(child=serializers.CharField())
    expires_at = serializers.DateTimeField(allow_null=True)
    deduplicated = serializers.BooleanField()
    conflict_with = serializers.UUIDField(allow_null=True)
    conflict_aspect = serializers.CharField(allow_null=True)
    policy_version = serializers.IntegerField()


# The id of a message: a short token, as in the audit log's details (no spaces, no free text).
MESSAGE_ID_PATTERN = r"^[A-Za-z0-9_.:@/+=#-]{1,128}$"


class StrictMessageIdField(serializers.RegexField):
    """A message id that must arrive as text: DRF's CharField would turn a number into one."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(MESSAGE_ID_PATTERN, max_length=128, **kwargs)
        self.error_messages["invalid"] = "Use the id of a message: letters, digits and _.:@/+=#- only."

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class ConfirmationAcceptSerializer(serializers.Serializer):
    instruction_message_id = StrictMessageIdField(
        required=False,
        help_text=(
            "agents only, and required for a confirm_by=user confirmation: the id of the message in which the "
            "person told the agent to confirm it (recorded in the audit log)"
        ),
    )


class ConfirmationOutSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    state = serializers.CharField()
    confirm_by = serializers.CharField()
    memory_id = serializers.UUIDField()
    memory_status = serializers.CharField()
