"""Append-only, hash-chained audit events. The database refuses UPDATE and DELETE (see migrations)."""

from __future__ import annotations

from typing import Any

from django.db import models

from governance.models import Tenant


class AppendOnlyError(Exception):
    """Audit events are never changed or removed."""


class AuditEvent(models.Model):
    # No index of its own: (tenant, seq) and every index below start with tenant, and an index is one
    # more B-tree each of a write's three events updates.
    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="+", db_index=False)
    seq = models.PositiveBigIntegerField()  # 1, 2, 3… per tenant: gaps and reordering show
    event = models.CharField(max_length=48)
    created_at = models.DateTimeField()
    actor = models.CharField(max_length=160)
    memory_id = models.UUIDField(null=True, blank=True)
    memory_type = models.CharField(max_length=32, blank=True)
    scope = models.CharField(max_length=16, blank=True)
    subject_id = models.CharField(max_length=128, blank=True)
    sensitivity = models.CharField(max_length=16, blank=True)
    source_message_id = models.CharField(max_length=128, blank=True)
    requires_confirmation = models.BooleanField(null=True)
    approved_by = models.CharField(max_length=160, blank=True)
    agent_version = models.CharField(max_length=64, blank=True)
    policy_version = models.PositiveIntegerField(null=True)
    reason_code = models.CharField(max_length=48, blank=True)
    entity_types = models.JSONField(default=list, blank=True)
    # Ids, counts and codes only: the writer refuses anything that looks like free text.
    details = models.JSONField(default=dict, blank=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "seq"], name="audit_unique_seq")]
        indexes = [
            models.Index(fields=["tenant", "event", "created_at"], name="audit_event_time"),
            models.Index(fields=["tenant", "memory_id"], name="audit_memory"),
            models.Index(fields=["tenant", "subject_id"], name="audit_subject"),
            models.Index(fields=["tenant", "created_at"], name="audit_time"),
        ]
        ordering = ["tenant_id", "seq"]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise AppendOnlyError("audit events are append-only")


class AuditChainHead(models.Model):
    """The last link of a tenant's chain. Appenders lock this row, so chains can't fork."""

    tenant = models.OneToOneField(Tenant, on_delete=models.PROTECT, primary_key=True, related_name="+")
    seq = models.PositiveBigIntegerField(default=0)
    head_hash = models.CharField(max_length=64)
