"""POST /api/v1/memories/used: the citations an answer used (memories.services.citations)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.plain_input import validated
from memories.access import SWITCHED_OFF_DETAIL, caller_for
from memories.services.citations import MAX_CITATIONS, CitationError, UseRefused, memory_used_record


class UsedRequestSerializer(serializers.Serializer):
    citation_ids = serializers.ListField(
        child=serializers.CharField(max_length=80),
        min_length=1,
        max_length=MAX_CITATIONS,
        help_text="the citation_id of each context item the answer used",
    )


class UsedResponseSerializer(serializers.Serializer):
    recorded = serializers.IntegerField(help_text="uses counted now")
    repeated = serializers.IntegerField(help_text="citations reported before: counted once only")


class RefusedResponseSerializer(serializers.Serializer):
    error = serializers.CharField(help_text="subject_blocked_agent")
    reason_code = serializers.CharField(help_text="subject_blocked_agent: the person switched this agent off")
    detail = serializers.CharField()


class MemoryUsedApi(APIView):
    @extend_schema(
        request=UsedRequestSerializer,
        responses={200: UsedResponseSerializer, 403: RefusedResponseSerializer},
        summary="Report which injected memories an answer used (citations): feeds ranking, consolidation, retention",
        examples=[
            OpenApiExample(
                "used",
                request_only=True,
                value={"citation_ids": ["0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b.0"]},
            )
        ],
    )
    def post(self, request: Request) -> Response:
        caller = caller_for(request)
        values = validated(UsedRequestSerializer, request.data)
        try:
            result = memory_used_record(
                tenant_id=caller.tenant_id,
                actor=caller.actor,
                citation_ids=list(values["citation_ids"]),
                subject_id=caller.subject_id,
                agent=caller.agent,
            )
        except CitationError as exc:
            raise ValidationError({exc.field: [exc.message]}) from None
        except UseRefused as exc:  # the person switched this agent off: nothing counted, the refusal audited
            body = {"error": exc.reason_code, "reason_code": exc.reason_code, "detail": SWITCHED_OFF_DETAIL}
            return Response(body, status=status.HTTP_403_FORBIDDEN)
        return Response(UsedResponseSerializer(result).data)
