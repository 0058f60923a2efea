"""Shapes of the agent API. Serializers check shape only; policy lives in the pipeline and services."""

from __future__ import annotations

from rest_framework import serializers

from memories.models import Memory


class MemoryOutSerializer(serializers.Serializer):
    """A memory as its owner (or their agent) sees it."""

    id = serializers.UUIDField()
    type = serializers.CharField()
    content = serializers.CharField(
        source="readable_content", allow_null=True, help_text="null when the record is unreadable (see readable)"
    )
    readable = serializers.SerializerMethodField(
        help_text="false when the stored ciphertext can't be opened (altered, or its key destroyed)"
    )
    scope = serializers.SerializerMethodField()
    source = serializers.SerializerMethodField()
    confidence = serializers.FloatField()
    sensitivity = serializers.CharField()
    retention_policy = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    expires_at = serializers.DateTimeField(allow_null=True)
    reason_code = serializers.CharField()
    reason = serializers.CharField()
    policy_version = serializers.IntegerField()
    created_by = serializers.CharField()
    reviewed_by = serializers.CharField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    use_count = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_readable(self, memory: Memory) -> bool:
        return memory.readable_content is not None

    def get_scope(self, memory: Memory) -> dict[str, str]:
        scope = {"level": memory.level}
        for name in ("user_id", "team", "project", "session_id", "task_id"):
            value = getattr(memory, name)
            if value:
                scope[name] = value
        return scope

    def get_source(self, memory: Memory) -> dict[str, str]:
        return {
            "source_type": memory.source_type,
            "source_message_id": memory.source_message_id,
            "agent": memory.agent.name if memory.agent_id else "",
        }


# The most memories one page may hold: without a cap, ?limit=2**63 reached the database (a 500).
MAX_PAGE_SIZE = 500


class MemoryListQuerySerializer(serializers.Serializer):
    """The list's query string. ``limit`` and ``offset`` are read again by the paginator; they are
    checked here so that a bad value is a 400 naming it rather than silently replaced."""

    user_id = serializers.CharField(max_length=128, help_text="the tenant's subject id")
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_PAGE_SIZE, help_text="memories per page (default 50)"
    )
    offset = serializers.IntegerField(required=False, min_value=0, help_text="how many to skip")


class MemoryPatchSerializer(serializers.Serializer):
    content = serializers.CharField(required=False, max_length=20000, trim_whitespace=True)
    type = serializers.ChoiceField(required=False, choices=[])
    reason = serializers.CharField(required=False, max_length=500, allow_blank=True)

    def __init__(self, *args: object, **kwargs: object) -> None:
        from governance.vocabulary import MemoryType

        super().__init__(*args, **kwargs)
        self.fields["type"].choices = [t.value for t in MemoryType]

    def validate(self, attrs: dict) -> dict:
        if "content" not in attrs and "type" not in attrs:
            raise serializers.ValidationError("Send 'content' and/or 'type' to change.")
        return attrs


class RollbackSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1)
