"""POST /api/v1/memories/context: the scoped, ranked, rendered memory an agent injects into its prompt."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from answers.shapes import context_out
from api.plain_input import validated
from governance.vocabulary import MemoryType
from memories.access import caller_for
from memories.read.context import (
    DEFAULT_STANDING_K,
    DEFAULT_TOKEN_BUDGET,
    DEFAULT_TOP_K,
    ContextRequest,
    memory_context_build,
)
from memories.read.scope import ContextScope

MAX_TOP_K = 50
MAX_STANDING_K = 20
MIN_TOKEN_BUDGET = 64
MAX_TOKEN_BUDGET = 32000
MAX_TEXT = 8000


class ContextScopeSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, required=False, help_text="the subject; a person may omit it")
    team = serializers.CharField(max_length=63, required=False, allow_blank=True, default="")
    project = serializers.CharField(
        max_length=128,
        required=False,
        allow_blank=True,
        default="",
        help_text="where the subject is working: their own memories of it, and its shared rules if they are a member",
    )
    session_id = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    task_id = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")


class ContextRequestSerializer(serializers.Serializer):
    scope = ContextScopeSerializer()
    query = serializers.CharField(max_length=MAX_TEXT, required=False, allow_blank=True, default="")
    types = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in MemoryType]),
        required=False,
        default=list,
        max_length=len(MemoryType),
    )
    top_k = serializers.IntegerField(
        min_value=1, max_value=MAX_TOP_K, default=DEFAULT_TOP_K, help_text="at most this many memories about the query"
    )
    standing_k = serializers.IntegerField(
        min_value=0,
        max_value=MAX_STANDING_K,
        default=DEFAULT_STANDING_K,
        help_text="besides them, at most this many standing preferences, constraints and named-scope rules"
        " (block `user_guidance`, the same whatever the query); 0 leaves them out",
    )
    token_budget = serializers.IntegerField(
        min_value=MIN_TOKEN_BUDGET, max_value=MAX_TOKEN_BUDGET, default=DEFAULT_TOKEN_BUDGET
    )
    instruction = serializers.CharField(max_length=MAX_TEXT, required=False, allow_blank=True, default="")
    language = serializers.ChoiceField(choices=["auto", "en", "zh"], default="auto")


class ContextItemSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    citation_id = serializers.CharField(
        allow_blank=True, help_text="report it to POST /api/v1/memories/used when the answer used this item"
    )
    ref = serializers.CharField(help_text="the memory's label in `rendered` (m1, m2, …)")
    type = serializers.CharField()
    content = serializers.CharField()
    scope = serializers.DictField(child=serializers.CharField())
    block = serializers.CharField()
    source = serializers.DictField(child=serializers.CharField())
    confidence = serializers.FloatField()
    updated_at = serializers.DateTimeField()
    score = serializers.FloatField()
    score_parts = serializers.DictField(
        child=serializers.FloatField(),
        help_text="relevance (lexical and semantic blended, 0..1 of the best), lexical, semantic, recency,"
        " confidence, trust: score = 0.55·relevance + 0.15·recency + 0.15·confidence + 0.15·trust",
    )
    cosine = serializers.FloatField(allow_null=True, help_text="the query's cosine with the memory; null: no vector")
    why = serializers.ListField(
        child=serializers.CharField(),
        help_text="query_terms, translated_terms, semantic, named_scope, standing or no_query (docs/retrieval.md)",
    )
    matched_terms = serializers.ListField(
        child=serializers.CharField(), help_text="the query's terms found in it; a translation as word→translation"
    )
    tokens = serializers.IntegerField()


class ContextConflictSerializer(serializers.Serializer):
    memory_id = serializers.UUIDField()
    ref = serializers.CharField()
    memory_type = serializers.CharField()
    dimension = serializers.CharField()
    memory_says = serializers.CharField()
    instruction_says = serializers.CharField()
    resolution = serializers.CharField()
    suggestion = serializers.CharField()


class ContextResponseSerializer(serializers.Serializer):
    rendered = serializers.CharField()
    items = ContextItemSerializer(many=True)
    conflicts = ContextConflictSerializer(many=True)
    token_count = serializers.IntegerField()
    token_budget = serializers.IntegerField()
    top_k = serializers.IntegerField()
    standing_k = serializers.IntegerField()
    language = serializers.CharField()
    omitted = serializers.IntegerField()
    ranking = serializers.ChoiceField(
        choices=["hybrid", "lexical"], help_text="hybrid: the query's embedding took part; lexical: words only"
    )


class MemoryContextApi(APIView):
    @extend_schema(
        request=ContextRequestSerializer,
        responses=ContextResponseSerializer,
        summary="The memory an agent may inject for a subject: scoped, ranked, within a token budget, rendered",
    )
    def post(self, request: Request) -> Response:
        caller = caller_for(request)
        values = validated(ContextRequestSerializer, request.data)
        scope = values["scope"]
        user_id = scope.get("user_id") or caller.subject_id
        if not user_id:
            raise ValidationError({"scope": {"user_id": ["Name the subject whose memory to read (scope.user_id)."]}})
        result = memory_context_build(
            caller=caller,
            request=ContextRequest(
                scope=ContextScope(
                    user_id=user_id,
                    team=scope["team"],
                    project=scope["project"],
                    session_id=scope["session_id"],
                    task_id=scope["task_id"],
                ),
                query=values["query"],
                types=tuple(dict.fromkeys(values["types"])),
                top_k=values["top_k"],
                standing_k=values["standing_k"],
                token_budget=values["token_budget"],
                instruction=values["instruction"],
                language=values["language"],
            ),
        )
        # The answer is JSON-ready already (the same as the MCP tool's); ContextResponseSerializer documents it
        # (extend_schema above) without copying its fields on every request.
        return Response(context_out(result))
