"""Agent API for memory records: one small class per operation, each calling a service or selector."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.memories.serializers import (
    MemoryListQuerySerializer,
    MemoryOutSerializer,
    MemoryPatchSerializer,
    RollbackSerializer,
)
from governance.pipeline.base import InvalidCandidate
from memories.access import agent_switched_off, caller_for, memory_for_caller
from memories.models import Memory
from memories.selectors import memory_list_active_for_subject
from memories.services.edits import EditRefused, memory_edit
from memories.services.integrity import memory_integrity_failures_record
from memories.services.records import (
    MemoryStateError,
    memory_delete,
    memory_pause,
    memory_resume,
    memory_rollback,
)


def _state_error(exc: MemoryStateError) -> Response:
    return Response({"error": "invalid_state", "detail": str(exc)}, status=status.HTTP_409_CONFLICT)


class MemoryListApi(APIView):
    # Set here (not only in settings) so that the OpenAPI document shows the page envelope and limit/offset.
    pagination_class = LimitOffsetPagination

    @extend_schema(
        parameters=[MemoryListQuerySerializer],
        responses=MemoryOutSerializer(many=True),
        summary="The active memories of a subject",
    )
    def get(self, request: Request) -> Response:
        caller = caller_for(request)
        query = MemoryListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        user_id = query.validated_data["user_id"]
        if caller.subject_id is not None and user_id != caller.subject_id:
            raise Http404
        memories = memory_list_active_for_subject(tenant_id=caller.tenant_id, user_id=user_id)
        if agent_switched_off(caller, user_id):
            memories = memories.none()
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(memories, request, view=self)
        memory_integrity_failures_record(memories=page, actor=caller.actor)
        return paginator.get_paginated_response(MemoryOutSerializer(page, many=True).data)


class MemoryDetailApi(APIView):
    @extend_schema(responses=MemoryOutSerializer, summary="One memory")
    def get(self, request: Request, memory_id: str) -> Response:
        caller = caller_for(request)
        memory = memory_for_caller(caller, memory_id)
        memory_integrity_failures_record(memories=[memory], actor=caller.actor)
        return Response(MemoryOutSerializer(memory).data)

    @extend_schema(
        request=MemoryPatchSerializer,
        responses=MemoryOutSerializer,
        summary="Edit: a new version",
        description=(
            "Held to the write pipeline's content rules: content over the policy's limit, a type the key may not "
            "write, a rule type, a policy override or too-sensitive data answer 400 and change nothing "
            "(error edit_refused with the reason_code a write would get, and the entity types found)."
        ),
    )
    def patch(self, request: Request, memory_id: str) -> Response:
        caller = caller_for(request)
        memory = memory_for_caller(caller, memory_id, change=True)
        data = MemoryPatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        new_type = data.validated_data.get("type")
        allowed = caller.agent.allowed_types if caller.agent is not None else []
        if new_type is not None and allowed and new_type not in allowed:
            raise InvalidCandidate("type", f"this agent key may not write {new_type} memories")
        try:
            memory = memory_edit(
                memory=memory,
                actor=caller.actor,
                content=data.validated_data.get("content"),
                type=new_type,
                reason=data.validated_data.get("reason", ""),
            )
        except EditRefused as refused:
            return Response(
                {
                    "error": "edit_refused",
                    "reason_code": refused.code,
                    "entity_types": list(refused.entity_types),
                    "detail": "A write of this change would be rejected; the memory is unchanged.",
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        except MemoryStateError as exc:
            return _state_error(exc)
        return Response(MemoryOutSerializer(memory).data)

    @extend_schema(responses={204: None}, summary="Delete: gone from every read at once")
    def delete(self, request: Request, memory_id: str) -> Response:
        caller = caller_for(request)
        memory_delete(memory=memory_for_caller(caller, memory_id, change=True), actor=caller.actor)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _change_status(request: Request, memory_id: str, service: Callable[..., Memory]) -> Response:
    caller = caller_for(request)
    try:
        memory = service(memory=memory_for_caller(caller, memory_id, change=True), actor=caller.actor)
    except MemoryStateError as exc:
        return _state_error(exc)
    return Response(MemoryOutSerializer(memory).data)


class MemoryPauseApi(APIView):
    @extend_schema(request=None, responses=MemoryOutSerializer, summary="Stop injecting this memory")
    def post(self, request: Request, memory_id: str) -> Response:
        return _change_status(request, memory_id, memory_pause)


class MemoryResumeApi(APIView):
    @extend_schema(request=None, responses=MemoryOutSerializer, summary="Inject this memory again")
    def post(self, request: Request, memory_id: str) -> Response:
        return _change_status(request, memory_id, memory_resume)


class MemoryRollbackApi(APIView):
    @extend_schema(request=RollbackSerializer, responses=MemoryOutSerializer, summary="Restore an earlier version")
    def post(self, request: Request, memory_id: str) -> Response:
        caller = caller_for(request)
        memory = memory_for_caller(caller, memory_id, change=True)
        data = RollbackSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            memory = memory_rollback(memory=memory, to_version=data.validated_data["version"], actor=caller.actor)
        except MemoryStateError as exc:
            raise ValidationError({"version": [str(exc)]}) from exc
        return Response(MemoryOutSerializer(memory).data)
