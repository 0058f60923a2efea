"""Sessions themselves: create, list (resume: select and last), read with merged state, change, delete."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from answers.shapes import local_when, session_out
from api.plain_input import validated
from api.sessions.serializers import (
    SessionCreateIn,
    SessionDeleteQuery,
    SessionDetailOut,
    SessionListQuery,
    SessionOut,
    SessionPatchIn,
)
from conversations.access import session_for_caller
from conversations.models import Session
from conversations.selectors.sessions import sessions_for_subject
from conversations.selectors.state import session_state_at
from conversations.services.deletion import session_delete
from conversations.services.sessions import SessionChange, session_create, session_update
from memories.access import Caller, caller_for


def subject_of(caller: Caller, user_id: str | None) -> str:
    """The subject a request is about: a person's own (another's is a 404), an agent's named one."""
    if caller.subject_id is not None:
        if user_id and user_id != caller.subject_id:
            raise Http404
        return caller.subject_id
    if not user_id:
        raise ValidationError({"user_id": ["This field is required."]})
    return user_id


def detail(session: Session) -> dict:
    """SessionDetailOut's answer (it documents it), built without copying its fields per request."""
    return session_out(session, state=session_state_at(session=session), when=local_when)


class SessionListApi(APIView):
    pagination_class = LimitOffsetPagination

    @extend_schema(
        request=SessionCreateIn,
        responses={201: SessionDetailOut},
        summary="Create a session",
        description="A new, empty session of a subject in an app (state `created`; active from its first event).",
    )
    def post(self, request: Request) -> Response:
        caller = caller_for(request)
        values = validated(SessionCreateIn, request.data)
        session = session_create(
            tenant_id=caller.tenant_id,
            user_id=subject_of(caller, values.get("user_id")),
            app=values["app"],
            workspace=values["workspace"],
            title=values["title"],
            dont_save=values["dont_save"],
            subagent=values["subagent"],
            actor=caller.actor,
        )
        return Response(detail(session), status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[SessionListQuery],
        responses=SessionOut(many=True),
        summary="A subject's sessions, most recently active first (resume)",
        description="`last=true` answers a page holding only the most recently active session (resume: last).",
    )
    def get(self, request: Request) -> Response:
        caller = caller_for(request)
        values = validated(SessionListQuery, request.query_params)
        sessions = sessions_for_subject(
            tenant_id=caller.tenant_id,
            user_id=subject_of(caller, values.get("user_id")),
            app=values.get("app"),
            workspace=values.get("workspace"),
        )
        if values["last"]:  # a page of at most one: counted as it is read, without a COUNT query of its own
            sessions = list(sessions[:1])
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(sessions, request, view=self)
        return paginator.get_paginated_response([session_out(s, when=local_when) for s in page])


class SessionDetailApi(APIView):
    @extend_schema(responses=SessionDetailOut, summary="One session, with its merged state and leaf")
    def get(self, request: Request, session_id: str) -> Response:
        return Response(detail(session_for_caller(caller_for(request), session_id)))

    @extend_schema(
        request=SessionPatchIn,
        responses=SessionDetailOut,
        summary='Suspend, resume or end; retitle; mark "don\'t save"',
        description="A state move the lifecycle doesn't allow (an ended session resumed, …) answers 409.",
    )
    def patch(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        values = validated(SessionPatchIn, request.data)
        change = SessionChange(
            state=values.get("state"),
            title=values.get("title") or None,
            title_given="title" in values,
            dont_save=values.get("dont_save"),
        )
        session = session_update(tenant_id=caller.tenant_id, session_id=session.pk, change=change, actor=caller.actor)
        return Response(detail(session))

    @extend_schema(
        parameters=[SessionDeleteQuery],
        responses={204: None},
        summary="Delete: its events, snapshots, summaries and session/task memories",
    )
    def delete(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        query = validated(SessionDeleteQuery, request.query_params)
        session_delete(
            tenant_id=caller.tenant_id,
            session_id=session.pk,
            actor=caller.actor,
            forget_extracted=query["forget_extracted"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
