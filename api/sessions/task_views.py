"""Task state over the API: read it (at any event), replace it (an event is appended)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.sessions.serializers import ident
from conversations.access import session_for_caller
from conversations.selectors.events import event_visible_to
from conversations.selectors.tasks import task_known, task_state_get
from conversations.services.tasks import task_state_update
from conversations.validation import IDENT
from conversations.vocabulary import ApprovalStatus, TaskStatus
from memories.access import caller_for


class TaskQuery(serializers.Serializer):
    session_id = serializers.UUIDField(help_text="the session that holds the task's state")
    at = serializers.UUIDField(required=False, help_text="an event id: the state as it was then")


class TaskPutQuery(serializers.Serializer):
    session_id = serializers.UUIDField(help_text="the session that holds the task's state")


class TaskStateIn(serializers.Serializer):
    goal = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    current_step = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    completed_steps = serializers.ListField(
        child=serializers.CharField(max_length=2000), max_length=100, required=False, default=list
    )
    pending_fields = serializers.ListField(
        child=serializers.CharField(max_length=2000), max_length=100, required=False, default=list
    )
    approval_status = serializers.ChoiceField(
        choices=[s.value for s in ApprovalStatus], required=False, default=ApprovalStatus.NONE.value
    )
    last_tool_result_id = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    next_action = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class TaskStateOut(TaskStateIn):
    task_id = ident("the task")
    session_id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=[s.value for s in TaskStatus])
    at_event_id = serializers.UUIDField(allow_null=True, help_text="the event the state was read at")


def _query(serializer: type[serializers.Serializer], request: Request, *, tenant_id: int, task_id: str) -> dict:
    """The query, checked; when it is malformed and the tenant has no such task, a 404 rather than a 400:
    another tenant learns nothing from how its request was refused."""
    query = serializer(data=request.query_params)
    if not query.is_valid():
        if not task_known(tenant_id=tenant_id, task_id=task_id):
            raise NotFound("No such task here: name the session that holds (or will hold) its state, ?session_id=.")
        raise ValidationError(query.errors)
    return dict(query.validated_data)


def _task_id(task_id: str) -> str:
    if not IDENT.match(task_id):
        raise ValidationError(
            {"task_id": ["Use 1-128 letters, digits or _.:@/+=#- , starting with a letter or digit."]}
        )
    return task_id


class TaskStateApi(APIView):
    @extend_schema(
        parameters=[TaskQuery],
        responses=TaskStateOut,
        summary="A task's structured state (§5.3) in a session, now or at an event",
    )
    def get(self, request: Request, task_id: str) -> Response:
        caller = caller_for(request)
        _task_id(task_id)
        query = _query(TaskQuery, request, tenant_id=caller.tenant_id, task_id=task_id)
        session = session_for_caller(caller, query["session_id"])
        at = None
        if "at" in query:
            at = event_visible_to(session=session, event_id=query["at"])
            if at is None:
                raise ValidationError({"at": ["No such event in this session."]})
        state = task_state_get(session=session, task_id=task_id, at=at)
        if state is None:
            raise Http404
        body = {**state.values, "task_id": task_id, "session_id": session.pk, "at_event_id": state.at_event_id}
        return Response(TaskStateOut(body).data)

    @extend_schema(
        parameters=[TaskPutQuery],
        request=TaskStateIn,
        responses=TaskStateOut,
        summary="Replace a task's state: the change is appended to the session as an event",
        description="Omitted fields take their defaults. 409 when the task was completed (its state is archived).",
    )
    def put(self, request: Request, task_id: str) -> Response:
        caller = caller_for(request)
        _task_id(task_id)
        query = _query(TaskPutQuery, request, tenant_id=caller.tenant_id, task_id=task_id)
        session = session_for_caller(caller, query["session_id"])
        data = TaskStateIn(data=request.data)
        data.is_valid(raise_exception=True)
        event, values = task_state_update(
            tenant_id=caller.tenant_id,
            session_id=session.pk,
            task_id=task_id,
            values=dict(data.validated_data),
            actor=caller.actor,
        )
        body = {**values, "task_id": task_id, "session_id": session.pk, "at_event_id": event.pk}
        return Response(TaskStateOut(body).data)
