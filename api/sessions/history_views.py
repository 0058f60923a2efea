"""A session's history: append, read a branch, pop, fork, state at any event, compact, the context projection."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from answers.shapes import appended_out, event_out
from api.plain_input import validated
from api.sessions.convert import new_event
from api.sessions.event_serializers import (
    AppendOut,
    BranchOut,
    BranchQuery,
    CompactOut,
    ContextIn,
    ContextOut,
    EventBatchIn,
    EventIn,
    PopOut,
    StateOut,
    StateQuery,
)
from api.sessions.serializers import ForkIn, SessionDetailOut
from api.sessions.views import detail
from conversations.access import session_for_caller
from conversations.selectors.context import session_context_build
from conversations.selectors.events import branch_after, branch_events, event_visible_to
from conversations.selectors.state import session_state_at
from conversations.services.compaction import session_compact
from conversations.services.events import session_events_append, session_pop
from conversations.services.sessions import session_fork
from memories.access import caller_for

AppendIn = PolymorphicProxySerializer(
    component_name="EventAppend", serializers=[EventIn, EventBatchIn], resource_type_field_name=None
)


class EventListApi(APIView):
    @extend_schema(
        request=AppendIn,
        responses={201: AppendOut},
        summary='Append one event, or {"events": [...]}',
        description=(
            "Each event goes after the previous one (the first after the leaf) unless it names a `parent_id`: an "
            "event of this session, or its fork point. Events get a gapless `seq`; concurrent appends are "
            "serialized. 400 names the field (unknown kind, a parent from another session, oversize content, a "
            "state_delta that isn't an object); 409 when the session has ended."
        ),
    )
    def post(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        if isinstance(request.data, dict) and "events" in request.data:
            items = validated(EventBatchIn, request.data)["events"]
        else:
            items = [validated(EventIn, request.data)]
        appended = session_events_append(
            tenant_id=caller.tenant_id,
            session_id=session.pk,
            events=[new_event(item) for item in items],
            actor=caller.actor,
            agent=caller.agent,
        )
        # JSON-ready answers (answers/shapes.py), which AppendOut documents without copying its fields per call.
        body = {"events": [appended_out(item) for item in appended], "leaf_id": str(appended[-1].event.pk)}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[BranchQuery],
        responses=BranchOut,
        summary="The branch from the root to a leaf, oldest first",
        description=(
            "The last `limit` events of the branch ending at `leaf` (default: the session's leaf). A fork's "
            "branch runs into the session it was forked from. Read earlier events with `leaf=next_leaf`. With "
            "`after` (an event of the branch), only the events after it: what was appended since a client last "
            "read; 400 naming `after` when it is not on the branch (popped or forked away: read the whole branch)."
        ),
    )
    def get(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        query = validated(BranchQuery, request.query_params)
        leaf = query.get("leaf")
        after = query.get("after")
        limit = query["limit"]
        if leaf is not None and event_visible_to(session=session, event_id=leaf) is None:
            raise ValidationError({"leaf": ["No such event in this session."]})
        leaf = leaf or session.leaf_id
        if after is not None:
            page = branch_after(tenant_id=caller.tenant_id, leaf_id=leaf, after_id=after, limit=limit) if leaf else None
            if page is None:
                raise ValidationError({"after": ["No such event on this branch."]})
            events, more = page.events, page.has_more
        else:
            events = branch_events(tenant_id=caller.tenant_id, leaf_id=leaf, limit=limit) if leaf else []
            more = bool(events) and events[0].parent_id is not None
        oldest = events[0] if events else None
        body = {
            "events": [event_out(e) for e in events],
            "has_more": more,
            "next_leaf": str(oldest.parent_id) if more and oldest else None,
        }
        return Response(body)  # JSON-ready (answers/shapes.py); BranchOut documents it


class PopApi(APIView):
    @extend_schema(
        request=None,
        responses=PopOut,
        summary="Undo the last item: the leaf moves to its parent",
        description="Nothing is erased. 409 when there is nothing of this session's own to pop.",
    )
    def post(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        left = session_pop(tenant_id=caller.tenant_id, session_id=session.pk, actor=caller.actor)
        # PopOut documents the answer; built here without copying its fields per request.
        return Response({"event": event_out(left), "leaf_id": str(left.parent_id) if left.parent_id else None})


class ForkApi(APIView):
    @extend_schema(
        request=ForkIn,
        responses={201: SessionDetailOut},
        summary="Fork: a new session sharing this one's history up to an event",
        description="Nothing is copied and the original is untouched. 400 when the event isn't one this session sees.",
    )
    def post(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        values = validated(ForkIn, request.data)
        fork = session_fork(
            tenant_id=caller.tenant_id,
            session_id=session.pk,
            from_event_id=values["from_event_id"],
            title=values["title"],
            actor=caller.actor,
        )
        return Response(detail(fork), status=status.HTTP_201_CREATED)


class StateApi(APIView):
    @extend_schema(
        parameters=[StateQuery],
        responses=StateOut,
        summary="The merged state at an event (time travel)",
        description=(
            "Session state as it was just after the event (from the nearest snapshot plus at most N deltas); app "
            "and user state are shared with other sessions and always current. 400 when `at` isn't an event this "
            "session sees."
        ),
    )
    def get(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        query = validated(StateQuery, request.query_params)
        at = None
        if "at" in query:
            at = event_visible_to(session=session, event_id=query["at"])
            if at is None:
                raise ValidationError({"at": ["No such event in this session."]})
        state = session_state_at(session=session, at=at)
        at_id = at.id if at is not None else session.leaf_id
        return Response(StateOut({"session_id": session.pk, "at_event_id": at_id, "state": state}).data)


class CompactApi(APIView):
    @extend_schema(
        request=None,
        responses={201: CompactOut},
        summary="Compact: a summary event covering the branch since the last one",
        description=(
            "Non-destructive: every event stays. Restricted text never enters the summary. 409 when the session "
            "isn't active or has nothing new; 503 (with Retry-After) when a configured LLM summarizer fails."
        ),
    )
    def post(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        event, covered = session_compact(tenant_id=caller.tenant_id, session_id=session.pk, actor=caller.actor)
        body = {"event": event_out(event), "summary": event.content, "covered_event_ids": covered}
        return Response(CompactOut(body).data, status=status.HTTP_201_CREATED)


class ContextApi(APIView):
    @extend_schema(
        request=ContextIn,
        responses=ContextOut,
        summary="The projection for the next model call, within a token budget",
        description="The latest summary first, then the events after it; the newest message is kept first.",
    )
    def post(self, request: Request, session_id: str) -> Response:
        caller = caller_for(request)
        session = session_for_caller(caller, session_id)
        values = validated(ContextIn, request.data)
        projection = session_context_build(session=session, token_budget=values["token_budget"])
        return Response(ContextOut(projection.__dict__).data)
