"""The events of a session's history and the full state snapshots of its snapshot chain."""

from __future__ import annotations

from django.db import models

from conversations.models.sessions import Session
from conversations.vocabulary import EventKind
from dbkit.ids import new_id
from governance.models import Tenant
from vault.fields import EncryptedTextField


class Event(models.Model):
    """One immutable thing that happened in a session. ``parent_id`` makes the history a tree: the event
    it follows, in this session or (the first after a fork) the fork point. ``base_id`` names the
    nearest event at or above it on its branch that holds a full snapshot; the state here is that
    snapshot plus the deltas of at most ``since_base`` events (the tenant policy's interval).

    ``content`` and ``state_delta`` (JSON text) are sealed with the subject's data key; nothing else here
    is content. ``meta`` holds ids and codes only (a compaction's covered event ids, a tool result's type).
    """

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    parent_id = models.UUIDField(null=True, blank=True)
    depth = models.PositiveIntegerField()  # 1 for a root; the branch's length up to here
    base_id = models.UUIDField(null=True, blank=True)
    since_base = models.PositiveSmallIntegerField()
    # The latest compaction at or above it on its branch: where the projection for a model call starts.
    summary_id = models.UUIDField(null=True, blank=True)
    kind = models.CharField(max_length=20, choices=[(k.value, k.value) for k in EventKind])
    content = EncryptedTextField(null=True, blank=True)
    state_delta = EncryptedTextField(null=True, blank=True)
    tool_call_id = models.CharField(max_length=128, blank=True)
    task_id = models.CharField(max_length=128, blank=True)
    tokens = models.PositiveIntegerField(default=0)
    meta = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "seq"], name="event_session_seq")]
        # Only events that name a task are indexed by it (completing a task finds its sessions).
        indexes = [models.Index(fields=["tenant", "task_id"], name="event_task", condition=~models.Q(task_id=""))]

    def encryption_owner(self) -> str:
        # Services set the owner when they build the row, so a batch doesn't load its session per event.
        owner = self.__dict__.get("_owner")
        return owner if owner is not None else self.session.user_id

    def __str__(self) -> str:  # never the content
        return f"event {self.id} ({self.kind}, seq {self.seq})"


class Snapshot(models.Model):
    """The full session-scope state at one event, every N events along a branch (N: the tenant policy's
    ``session_snapshot_interval``), so the state anywhere is rebuilt from one snapshot and at most N deltas
    and storage stays linear in the number of events."""

    # No cascade: the deletion service removes snapshots before their events, so that events go in one
    # DELETE rather than through Django's collector (the database still checks the reference).
    event = models.OneToOneField(Event, primary_key=True, on_delete=models.DO_NOTHING, related_name="snapshot")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    values = EncryptedTextField()

    def encryption_owner(self) -> str:
        owner = self.__dict__.get("_owner")
        return owner if owner is not None else self.event.session.user_id
