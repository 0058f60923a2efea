"""Lifecycle API for agents: a finished task's memories are archived (§10.3)."""

from __future__ import annotations

import re

from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.services.tasks import task_complete
from governance.vocabulary import Level
from memories.access import caller_for

# The same alphabet agents use for ids elsewhere; the column holds at most 128 characters.
TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$")

TaskCompleteOut = inline_serializer(
    "TaskCompleteOut",
    fields={
        "task_id": serializers.CharField(),
        "archived": serializers.IntegerField(help_text="memories archived by this call"),
        "remaining": serializers.IntegerField(help_text="live memories left; call again to archive them"),
        "states_archived": serializers.IntegerField(help_text="sessions whose state of this task was archived"),
    },
)


class TaskCompleteApi(APIView):
    @extend_schema(
        request=None,
        responses={200: TaskCompleteOut},
        summary="The task is finished: archive its task-scope memories and its task state",
        description=(
            "Archives the live memories at task scope for this task id in the agent's tenant; each archival "
            "is audited (memory_archived, reason task_completed); so is archiving the task's state in every session "
            "that holds it (task_state_changed). Idempotent. 404 when the tenant has neither a memory nor a task "
            "state for this task."
        ),
    )
    def post(self, request: Request, task_id: str) -> Response:
        caller = caller_for(request)
        agent = caller.agent
        # Agents only; an agent key limited to other levels may not touch task memories.
        if agent is None or (agent.allowed_levels and Level.TASK.value not in agent.allowed_levels):
            raise Http404
        if not TASK_ID.match(task_id):
            raise ValidationError(
                {"task_id": ["Use 1-128 letters, digits, '_', '.', ':', '@' or '-', starting with a letter or digit."]}
            )
        done = task_complete(tenant_id=caller.tenant_id, task_id=task_id, actor=caller.actor)
        if done.found == 0:
            raise Http404
        body = {"archived": done.archived, "remaining": done.remaining, "states_archived": done.states_archived}
        return Response({"task_id": task_id, **body})
