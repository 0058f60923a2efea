"""A session (seed 000 §18.1) and the state it shares beyond itself (app and user scopes)."""

from __future__ import annotations

from django.db import models

from conversations.vocabulary import SessionState
from dbkit.ids import new_id
from governance.models import Tenant
from vault.fields import EncryptedTextField


class Session(models.Model):
    """One conversation of a subject with an app. Its history is the tree of its events (and, for a fork,
    the prefix it shares with the session it was forked from); ``leaf_id`` is where the next append goes.

    A deleted session that other sessions were forked from keeps, hidden, only the events their history
    still runs through (``deleted_at`` set, title and everything else gone) until the last of them is deleted.
    """

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    user_id = models.CharField(max_length=128)
    app = models.CharField(max_length=128)
    workspace = models.CharField(max_length=255, blank=True)
    # What a person or agent typed: content, so sealed like it.
    title = EncryptedTextField(null=True, blank=True)
    state = models.CharField(
        max_length=12, choices=[(s.value, s.value) for s in SessionState], default=SessionState.CREATED.value
    )
    dont_save = models.BooleanField(default=False)
    # Where saving starts again once the person turns a temporary ("don't save") session back to normal:
    # events before this seq were said while it was temporary, and nothing is ever learned from them.
    save_from_seq = models.PositiveIntegerField(default=0)
    # A sub-agent's session (a crawl, a delegated step): its history is the parent's business, and
    # nothing in it becomes the person's memory (phase 1 skips it).
    subagent = models.BooleanField(default=False)

    # A fork: the session and the event it was forked from. The event may lie in an earlier ancestor
    # (a fork of a fork made before the middle one had events of its own).
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks")
    fork_event_id = models.UUIDField(null=True, blank=True)

    # The leaf and what an append needs to know about it, kept here so an append reads one row.
    leaf_id = models.UUIDField(null=True, blank=True)
    leaf_seq = models.PositiveIntegerField(default=0)
    leaf_depth = models.PositiveIntegerField(default=0)
    leaf_base_id = models.UUIDField(null=True, blank=True)
    leaf_since_base = models.PositiveIntegerField(default=0)
    leaf_summary_id = models.UUIDField(null=True, blank=True)
    next_seq = models.PositiveIntegerField(default=1)

    event_count = models.PositiveIntegerField(default=0)  # events appended to this session itself
    input_tokens = models.PositiveBigIntegerField(default=0)
    output_tokens = models.PositiveBigIntegerField(default=0)

    created_at = models.DateTimeField(auto_now_add=True)
    last_active_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # Resume: a subject's sessions, most recently active first (of one app: filtered on the way).
            # One index, not one more with the app: every append moves last_active_at in each.
            models.Index(fields=["tenant", "user_id", "last_active_at"], name="session_subject"),
            models.Index(fields=["state", "ended_at"], name="session_retention"),
            models.Index(
                fields=["fork_event_id"], name="session_fork_point", condition=models.Q(fork_event_id__isnull=False)
            ),
        ]

    def encryption_owner(self) -> str:
        return self.user_id

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __str__(self) -> str:  # never the title
        return f"session {self.id} ({self.state})"


class ScopedState(models.Model):
    """The current app state (``user_id`` empty: every user of the app in the tenant) or user state (one
    subject across their sessions of the app), as one sealed JSON object. Changed only by the deltas of
    appended events; not time-travelled (see docs/sessions.md)."""

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    app = models.CharField(max_length=128)
    user_id = models.CharField(max_length=128, blank=True)
    values = EncryptedTextField()
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "app", "user_id"], name="scopedstate_unique")]

    def encryption_owner(self) -> str:
        return self.user_id  # "": the tenant's shared key
