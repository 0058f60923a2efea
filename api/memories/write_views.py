"""memory.write and settling confirmations, for agents (and the person, through their session)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from answers.shapes import decision_out
from api.memories.write_serializers import (
    ConfirmationAcceptSerializer,
    ConfirmationOutSerializer,
    DecisionSerializer,
    WriteRequestSerializer,
    candidate_from,
)
from api.plain_input import validated
from governance.pipeline.base import InvalidCandidate
from memories.access import Caller, caller_for, confirmation_for_caller
from memories.models import Confirmation
from memories.services.confirmations import (
    ConfirmationError,
    ConsentRequired,
    confirmation_accept,
    confirmation_decline,
)
from memories.services.write import memory_write


class MemoryWriteApi(APIView):
    @extend_schema(
        request=WriteRequestSerializer,
        responses={200: DecisionSerializer},
        summary="memory.write: submit a candidate memory; get save / ask_confirmation / reject",
        examples=[
            OpenApiExample(
                "An explicit preference",
                request_only=True,
                value={
                    "type": "user_preference",
                    "content": "记住我喜欢回答里多用表格。",
                    "scope": {"level": "user", "user_id": "alice"},
                    "source": {"source_type": "explicit_user_request", "source_message_id": "msg-1"},
                    "confidence": 0.95,
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        caller = caller_for(request)
        values = validated(WriteRequestSerializer, request.data)
        candidate = candidate_from(values)
        on_behalf_of = values["on_behalf_of"]
        if caller.subject_id is not None:
            # A person writes only their own memories, as themself.
            if candidate.scope.user_id not in ("", caller.subject_id) or on_behalf_of not in ("", caller.subject_id):
                raise InvalidCandidate("scope.user_id", "you can only write your own memories")
            on_behalf_of = caller.subject_id
        result = memory_write(
            tenant_id=caller.tenant_id,
            candidate=candidate,
            actor_label=caller.actor,
            agent=caller.agent,
            on_behalf_of=on_behalf_of,
            session_id=values["session_id"],
        )
        # The payload is JSON-ready already; DecisionSerializer documents it (see extend_schema) without
        # re-copying its fields on every request.
        return Response(decision_out(result))


def _settled(confirmation: Confirmation) -> Response:
    confirmation.refresh_from_db()
    return Response(
        ConfirmationOutSerializer(
            {
                "id": confirmation.pk,
                "state": confirmation.state,
                "confirm_by": confirmation.confirm_by,
                "memory_id": confirmation.memory_id,
                "memory_status": confirmation.memory.status,
            }
        ).data
    )


def _conflict(exc: ConfirmationError) -> Response:
    return Response({"error": "confirmation_closed", "detail": str(exc)}, status=status.HTTP_409_CONFLICT)


def consent_required(exc: ConsentRequired) -> Response:
    return Response(
        {"error": "consent_required", "fields": {exc.field: [str(exc)]}}, status=status.HTTP_400_BAD_REQUEST
    )


class ConfirmationAcceptApi(APIView):
    @extend_schema(
        request=ConfirmationAcceptSerializer,
        responses=ConfirmationOutSerializer,
        summary="Confirm a pending memory",
        description=(
            "A person confirms their own pending memory in their session. An agent may confirm one only on the "
            "person's explicit instruction: it names the message in which they said yes (instruction_message_id, "
            "recorded in the audit log); without it, or naming the message the inference came from, the answer "
            "is 400 consent_required and nothing changes."
        ),
    )
    def post(self, request: Request, confirmation_id: str) -> Response:
        caller = caller_for(request)
        confirmation = confirmation_for_caller(caller, confirmation_id)
        data = ConfirmationAcceptSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if confirmation.confirm_by == "admin":
            return _rule_approved(caller, confirmation)
        try:
            confirmation_accept(
                confirmation=confirmation,
                actor=caller.actor,
                by_agent=caller.is_agent,
                instruction_message_id=data.validated_data.get("instruction_message_id", ""),
            )
        except ConsentRequired as exc:
            return consent_required(exc)
        except ConfirmationError as exc:
            return _conflict(exc)
        return _settled(confirmation)


def _rule_approved(caller: Caller, confirmation: Confirmation) -> Response:
    """An admin's approval of a rule counts like one in the console: a high-risk rule needs a second
    admin (202 until then), so this API can't activate it on one approval."""
    from memories.services.rules import RuleError, rule_approve

    try:
        outcome = rule_approve(tenant_id=caller.tenant_id, memory_id=confirmation.memory_id, actor=caller.actor)
    except RuleError as exc:
        return _conflict(ConfirmationError(str(exc)))
    response = _settled(confirmation)
    if not outcome.activated:
        response.status_code = status.HTTP_202_ACCEPTED
    return response


class ConfirmationDeclineApi(APIView):
    @extend_schema(request=None, responses=ConfirmationOutSerializer, summary="Decline a pending memory")
    def post(self, request: Request, confirmation_id: str) -> Response:
        caller = caller_for(request)
        confirmation = confirmation_for_caller(caller, confirmation_id)
        try:
            confirmation_decline(confirmation=confirmation, actor=caller.actor)
        except ConfirmationError as exc:
            return _conflict(exc)
        return _settled(confirmation)
