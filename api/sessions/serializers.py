"""Shapes of the Sessions API: small input and output serializers, so the OpenAPI document is exact."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from conversations.models import Session
from conversations.validation import IDENT, IDENT_HELP
from conversations.vocabulary import REQUESTABLE_STATES, SessionState

MAX_PAGE_SIZE = 500


def ident(help_text: str, **kwargs: Any) -> serializers.RegexField:
    return serializers.RegexField(
        IDENT.pattern,
        max_length=128,
        help_text=f"{help_text} ({IDENT_HELP})",
        error_messages={"invalid": f"Use {IDENT_HELP}."},
        **kwargs,
    )


class TokensOut(serializers.Serializer):
    input = serializers.IntegerField()
    output = serializers.IntegerField()
    total = serializers.IntegerField()


class SessionOut(serializers.Serializer):
    id = serializers.UUIDField()
    user_id = serializers.CharField()
    app = serializers.CharField()
    workspace = serializers.CharField()
    title = serializers.CharField(allow_null=True)
    state = serializers.ChoiceField(choices=[s.value for s in SessionState])
    dont_save = serializers.BooleanField()
    parent_id = serializers.UUIDField(allow_null=True, help_text="the session this one was forked from")
    fork_event_id = serializers.UUIDField(allow_null=True, help_text="the event it was forked at")
    leaf_id = serializers.UUIDField(allow_null=True, help_text="where the next event goes; null: no event yet")
    event_count = serializers.IntegerField(help_text="events appended to this session itself")
    tokens = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    last_active_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)

    def get_tokens(self, session: Session) -> dict[str, int]:
        return {"input": session.input_tokens, "output": session.output_tokens, "total": session.total_tokens}

    get_tokens.__annotations__["return"] = TokensOut  # the schema's shape of the method field


class SessionDetailOut(SessionOut):
    merged_state = serializers.DictField(help_text="app state, then user state, then the session's own, at the leaf")


class SessionCreateIn(serializers.Serializer):
    user_id = ident("the subject; a person may omit it (their own)", required=False)
    app = ident("the agent or application")
    workspace = serializers.CharField(max_length=255, required=False, allow_blank=True, default="")
    title = serializers.CharField(max_length=200, required=False, allow_null=True, default=None)
    dont_save = serializers.BooleanField(required=False, default=False, help_text="nothing from it becomes memory")
    subagent = serializers.BooleanField(
        required=False, default=False, help_text="a sub-agent's session: extraction skips it"
    )


class SessionListQuery(serializers.Serializer):
    user_id = ident("the subject; a person may omit it", required=False)
    app = ident("only this app's sessions", required=False)
    workspace = serializers.CharField(max_length=255, required=False)
    last = serializers.BooleanField(
        required=False, default=False, help_text="only the most recently active (resume: last)"
    )
    limit = serializers.IntegerField(required=False, min_value=1, max_value=MAX_PAGE_SIZE)
    offset = serializers.IntegerField(required=False, min_value=0)


class SessionPatchIn(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=[s.value for s in REQUESTABLE_STATES], required=False, help_text="suspend, resume (active) or end"
    )
    title = serializers.CharField(max_length=200, required=False, allow_null=True, allow_blank=True)
    dont_save = serializers.BooleanField(required=False, help_text="once true, it stays true")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError("Send 'state', 'title' and/or 'dont_save'.")
        return attrs


class SessionDeleteQuery(serializers.Serializer):
    forget_extracted = serializers.BooleanField(
        required=False, default=False, help_text="also delete the long-term memories learned only from it"
    )


class ForkIn(serializers.Serializer):
    from_event_id = serializers.UUIDField(help_text="any event the session sees: its own, or on the prefix it shares")
    title = serializers.CharField(max_length=200, required=False, allow_null=True, default=None)


def max_event_chars() -> int:
    return int(settings.MEMGOV_SESSION_MAX_EVENT_CHARS)
