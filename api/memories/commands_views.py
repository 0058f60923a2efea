"""``POST /api/v1/commands``: a natural-language memory command (§18.2) for one subject.

An agent names the subject (``user_id``); a person logged in with a session acts only on
themselves. The answer is the plan; a destructive plan runs only when the request says
``confirm: true``, so an agent must show the person what will be deleted and ask first.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.memories.serializers import MemoryOutSerializer
from api.memories.write_serializers import StrictMessageIdField
from api.memories.write_views import consent_required
from memories.access import SWITCHED_OFF_DETAIL, agent_switched_off, caller_for
from memories.nlcommands import CommandResult, Missing, command_run
from memories.nlcommands.examples import EXAMPLES
from memories.nlcommands.messages import intent_label, result_summary
from memories.services.confirmations import ConfirmationError, ConsentRequired
from memories.services.integrity import memory_integrity_failures_record


class CommandInSerializer(serializers.Serializer):
    user_id = serializers.CharField(max_length=128, required=False, help_text="the subject; required for agents")
    text = serializers.CharField(max_length=500)
    session_id = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    confirm = serializers.BooleanField(default=False, help_text="run a destructive plan")
    memory_ids = serializers.ListField(
        child=serializers.UUIDField(),
        required=False,
        max_length=1000,
        help_text="with confirm: only these memories of the plan (the ones the person was shown)",
    )
    message_id = StrictMessageIdField(
        required=False,
        help_text=(
            "the id of the person's message this command came in; an agent must give it for a command that "
            "confirms a pending memory (recorded in the audit log as the person's instruction)"
        ),
    )


class CommandOutSerializer(serializers.Serializer):
    intent = serializers.CharField()
    intent_label = serializers.CharField()
    language = serializers.CharField()
    argument = serializers.CharField()
    destructive = serializers.BooleanField()
    requires_confirmation = serializers.BooleanField()
    executed = serializers.BooleanField()
    missing = serializers.CharField()
    message = serializers.CharField()
    memories = MemoryOutSerializer(many=True)
    changed = serializers.ListField(child=serializers.UUIDField())
    decision = serializers.DictField(allow_null=True)


def _language(code: str) -> str:
    return "zh-hans" if code == "zh" else "en"


def command_response_data(result: CommandResult) -> dict[str, Any]:
    plan = result.plan
    write = result.write
    with translation.override(_language(plan.command.language)):
        return {
            "intent": plan.intent.value,
            "intent_label": intent_label(plan.intent),
            "language": plan.command.language,
            "argument": plan.command.argument,
            "destructive": plan.destructive,
            "requires_confirmation": result.needs_confirmation,
            "executed": result.executed,
            "missing": plan.missing,
            "message": result_summary(result),
            "memories": MemoryOutSerializer(plan.memories, many=True).data,
            "changed": [str(m.pk) for m in result.changed],
            "decision": None
            if write is None
            else {
                "decision": write.decision.kind.value,
                "reason_code": write.decision.reason_code,
                "memory_id": str(write.memory.pk) if write.memory else None,
                "confirmation_id": str(write.confirmation.pk) if write.confirmation else None,
            },
        }


class CommandApi(APIView):
    @extend_schema(
        request=CommandInSerializer,
        responses=CommandOutSerializer,
        summary="Run a natural-language memory command (§18.2); destructive ones need confirm=true",
    )
    def post(self, request: Request) -> Response:
        caller = caller_for(request)
        data = CommandInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user_id = values.get("user_id", "")
        if caller.subject_id is not None:  # a person: only themselves, and "not found" for anyone else
            if user_id and user_id != caller.subject_id:
                raise Http404
            user_id = caller.subject_id
        elif not user_id:
            return Response(
                {"error": "invalid_request", "fields": {"user_id": ["An agent must name the subject (user_id)."]}},
                status=status.HTTP_400_BAD_REQUEST,
            )
        if agent_switched_off(caller, user_id):
            return Response(
                {"error": "subject_blocked_agent", "detail": SWITCHED_OFF_DETAIL}, status=status.HTTP_403_FORBIDDEN
            )
        ids = values.get("memory_ids")
        try:
            result = command_run(
                tenant_id=caller.tenant_id,
                user_id=user_id,
                actor=caller.actor,
                text=values["text"],
                session_id=values["session_id"],
                confirm=values["confirm"],
                only_ids=[str(i) for i in ids] if ids is not None else None,
                agent=caller.agent,
                message_id=values.get("message_id", ""),
            )
        except ConsentRequired as exc:
            return consent_required(exc)
        except ConfirmationError as exc:
            return Response({"error": "invalid_state", "detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        memory_integrity_failures_record(memories=result.plan.memories, actor=caller.actor)
        body = command_response_data(result)
        missing = result.plan.missing
        if missing in {Missing.INTENT, Missing.SESSION}:
            field = "text" if missing == Missing.INTENT else "session_id"
            return Response(
                {
                    "error": "unknown_command" if missing == Missing.INTENT else "invalid_request",
                    "fields": {field: [body["message"]]},
                    "examples": EXAMPLES[result.plan.command.language],
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(body)
