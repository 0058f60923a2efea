"""A handoff: ids of what crossed from one agent to another, no content of its own."""

from __future__ import annotations

from django.db import models

from conversations.models import Session
from dbkit.ids import new_id
from governance.models import AgentClient, Tenant


class Handoff(models.Model):
    """One agent's task, handed to another agent of the same tenant. Deleted with its session.

    ``at_event_id`` is where the task state was read (the receiver reads the state as it was then);
    ``memory_ids`` the memories that crossed, re-checked on every read so that one deleted, paused or
    expired since is not served.
    """

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    task_id = models.CharField(max_length=128)
    user_id = models.CharField(max_length=128)
    from_agent = models.ForeignKey(AgentClient, on_delete=models.CASCADE, related_name="+")
    to_agent = models.ForeignKey(AgentClient, on_delete=models.CASCADE, related_name="+")
    at_event_id = models.UUIDField(null=True)
    memory_ids = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "to_agent", "created_at"], name="handoff_receiver")]
