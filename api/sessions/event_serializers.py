"""Shapes of events: what an append takes and returns, and an event as it is read back."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from api.plain_input import reads_only_its_value
from api.sessions.serializers import ident
from conversations.vocabulary import APPENDABLE_KINDS, ApprovalStatus, EventKind, ToolResultType

MAX_BRANCH_PAGE = 1000


class KeepIn(serializers.Serializer):
    content = serializers.CharField(max_length=2000, help_text="the reference to keep, e.g. 'order 123 was pending'")
    expires_at = serializers.DateTimeField(required=False, help_text="only ever shortens the policy's TTL")


class ToolResultIn(serializers.Serializer):
    type = serializers.ChoiceField(choices=[t.value for t in ToolResultType], default=ToolResultType.QUERY.value)
    approval_status = serializers.ChoiceField(
        choices=[s.value for s in ApprovalStatus if s != ApprovalStatus.NONE], required=False
    )
    keep = KeepIn(required=False, help_text="keep a query result as a dated tool_result_ref memory")


class EventIn(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[k.value for k in EventKind],
        help_text=f"one of {', '.join(APPENDABLE_KINDS)}; compaction events are memgov's",
    )
    content = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        trim_whitespace=False,
        max_length=settings.MEMGOV_SESSION_MAX_EVENT_CHARS,
    )
    state_delta = serializers.JSONField(
        required=False, allow_null=True, help_text="a JSON object of changes; a null value removes the key"
    )
    parent_id = serializers.UUIDField(required=False, allow_null=True, help_text="default: the session's leaf")
    tool_call_id = ident("the tool call this event belongs to", required=False, allow_blank=True, default="")
    task_id = ident("the task this event belongs to", required=False, allow_blank=True, default="")
    tool_result = ToolResultIn(required=False, help_text="tool_result events only (§14.1)")

    @reads_only_its_value
    def validate_state_delta(self, value: Any) -> Any:
        if value is not None and not isinstance(value, dict):
            raise serializers.ValidationError("Send a JSON object of changes.")
        return value


class EventBatchIn(serializers.Serializer):
    events = EventIn(many=True, help_text="at most 100, appended in order")

    @reads_only_its_value
    def validate_events(self, value: list[Any]) -> list[Any]:
        if not 1 <= len(value) <= 100:
            raise serializers.ValidationError("Send 1 to 100 events.")
        return value


class KeptOut(serializers.Serializer):
    decision = serializers.CharField()
    reason_code = serializers.CharField()
    memory_id = serializers.UUIDField(allow_null=True)


class AppendedOut(serializers.Serializer):
    id = serializers.UUIDField()
    seq = serializers.IntegerField()
    parent_id = serializers.UUIDField(allow_null=True)
    kind = serializers.ChoiceField(choices=[k.value for k in EventKind])
    tokens = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    kept = KeptOut(allow_null=True, help_text="a tool result kept as memory: the write pipeline's decision")


class AppendOut(serializers.Serializer):
    events = AppendedOut(many=True)
    leaf_id = serializers.UUIDField()


class EventOut(serializers.Serializer):
    id = serializers.UUIDField()
    session_id = serializers.UUIDField(help_text="a fork's prefix lives in the session it was forked from")
    seq = serializers.IntegerField()
    parent_id = serializers.UUIDField(allow_null=True)
    kind = serializers.ChoiceField(choices=[k.value for k in EventKind])
    content = serializers.CharField(allow_null=True)
    state_delta = serializers.DictField(allow_null=True)
    tool_call_id = serializers.CharField()
    task_id = serializers.CharField()
    tokens = serializers.IntegerField()
    meta = serializers.DictField(
        allow_null=True, help_text="ids and codes: a compaction's covered ids, a result's type"
    )
    created_at = serializers.DateTimeField()


class BranchQuery(serializers.Serializer):
    leaf = serializers.UUIDField(required=False, help_text="the branch's last event (default: the session's leaf)")
    after = serializers.UUIDField(
        required=False,
        help_text="only the events after this one of the branch (the last event a client has read): what is new",
    )
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_BRANCH_PAGE, default=100, help_text="the last this many events"
    )


class BranchOut(serializers.Serializer):
    events = EventOut(many=True)
    has_more = serializers.BooleanField(
        help_text="earlier events exist (after `after`, when given): ask again with leaf=next_leaf"
    )
    next_leaf = serializers.UUIDField(allow_null=True)


class PopOut(serializers.Serializer):
    event = EventOut(help_text="the event left behind (still stored, off the branch)")
    leaf_id = serializers.UUIDField(allow_null=True)


class StateQuery(serializers.Serializer):
    at = serializers.UUIDField(required=False, help_text="an event id (default: the leaf)")


class StateOut(serializers.Serializer):
    session_id = serializers.UUIDField()
    at_event_id = serializers.UUIDField(allow_null=True)
    state = serializers.DictField(help_text="merged: app state and user state (current), session state at the event")


class CompactOut(serializers.Serializer):
    event = EventOut()
    summary = serializers.CharField()
    covered_event_ids = serializers.ListField(child=serializers.UUIDField())


class ContextIn(serializers.Serializer):
    token_budget = serializers.IntegerField(min_value=16, max_value=1_000_000)


class MessageOut(serializers.Serializer):
    role = serializers.ChoiceField(choices=["user", "assistant", "tool", "system"])
    kind = serializers.ChoiceField(choices=[k.value for k in EventKind])
    content = serializers.CharField(allow_null=True)
    event_id = serializers.UUIDField()
    seq = serializers.IntegerField()
    tool_call_id = serializers.CharField(required=False)


class ContextOut(serializers.Serializer):
    messages = MessageOut(many=True)
    tokens = serializers.IntegerField()
    summary_event_id = serializers.UUIDField(allow_null=True)
    omitted = serializers.IntegerField(help_text="messages after the summary left out for the budget")
    truncated = serializers.BooleanField(help_text="the summary or the newest message was cut to fit")
