"""Handoffs between agents (§15): the sending agent posts one; only the agent it names reads it."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from answers.shapes import handoff_out
from api.sessions.serializers import ident
from conversations.access import session_for_caller
from handoffs.selectors import handoff_for_receiver
from handoffs.services import handoff_create, handoff_receive
from memories.access import caller_for


class HandoffIn(serializers.Serializer):
    session_id = serializers.UUIDField(help_text="the session that holds the task's state")
    task_id = ident("the task to hand over")
    to_agent = serializers.CharField(max_length=100, help_text="the name of the receiving agent key, in your tenant")


class HandoffMemoryOut(serializers.Serializer):
    id = serializers.UUIDField()
    type = serializers.CharField()
    level = serializers.CharField()
    content = serializers.CharField()
    source_type = serializers.CharField()
    confidence = serializers.FloatField()
    sensitivity = serializers.CharField()
    updated_at = serializers.DateTimeField()


class HandoffOut(serializers.Serializer):
    """The answer's schema; answers/shapes.py handoff_out builds it (for MCP too)."""

    id = serializers.UUIDField()
    session_id = serializers.UUIDField()
    task_id = serializers.CharField()
    user_id = serializers.CharField()
    from_agent = serializers.CharField()
    to_agent = serializers.CharField()
    created_at = serializers.DateTimeField()
    task_state = serializers.DictField(help_text="the task's state when it was handed over")
    memories = HandoffMemoryOut(
        many=True,
        help_text="the task's state and tool-result references, confirmed preferences and approved rules of the "
        "subject; never the history, unconfirmed inferences, high-sensitivity text or another subject's data",
    )


class HandoffCreateApi(APIView):
    @extend_schema(
        request=HandoffIn,
        responses={201: HandoffOut},
        summary="Hand a task to another agent: its state and the memories allowed to cross",
        description=(
            "400 names the field: a task with no state in the session, an agent name that is not an active key of "
            "your tenant, or your own. The receiving key reads it with GET /api/v1/handoffs/{id}."
        ),
    )
    def post(self, request: Request) -> Response:
        caller = caller_for(request)
        data = HandoffIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        session = session_for_caller(caller, values["session_id"])
        context = handoff_create(caller=caller, session=session, task_id=values["task_id"], to_agent=values["to_agent"])
        return Response(handoff_out(context), status=status.HTTP_201_CREATED)


class HandoffDetailApi(APIView):
    @extend_schema(
        responses=HandoffOut,
        summary="A handoff, for the agent it was handed to",
        description="Any other caller, the agent that made it included, gets 404. Memories deleted, paused or "
        "expired since the handoff are left out.",
    )
    def get(self, request: Request, handoff_id: str) -> Response:
        caller = caller_for(request)
        handoff = handoff_for_receiver(caller=caller, handoff_id=handoff_id)
        if handoff is None:
            raise Http404
        return Response(handoff_out(handoff_receive(caller=caller, handoff=handoff)))
