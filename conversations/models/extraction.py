"""Phase 1's bookkeeping: one claim per session to extract, and the ledger of what each claim wrote.

A claim is how "one worker per session, crash-safe" is kept: a worker takes a claim with a lease; a
worker that dies leaves a lease that runs out, and the next run takes the claim again. Each candidate it
proposes is entered in the ledger in the same transaction as its write, under a key derived from the
events it came from, so a retried claim skips what the dead one already wrote: it never runs twice to
effect. Neither table holds content — ids, codes and counts only.
"""

from __future__ import annotations

from django.db import models

from conversations.models.sessions import Session
from governance.models import Tenant


class ExtractionClaim(models.Model):
    class State(models.TextChoices):
        PENDING = "pending"  # eligible, not taken yet (or new events since the last run)
        RUNNING = "running"  # taken; ``lease_until`` says until when the taker has it
        DONE = "done"
        SKIPPED = "skipped"  # dont_save, a sub-agent's session, memory paused: ``outcome`` says which
        FAILED = "failed"  # gave up after MAX_ATTEMPTS

    session = models.OneToOneField(Session, primary_key=True, on_delete=models.CASCADE, related_name="extraction")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    # The last seq the latest finished run read: new events after it make the session eligible again.
    through_seq = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=24, blank=True)  # a code: extracted, dont_save, subagent, paused …
    candidates = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["state", "lease_until"], name="extraction_claim_state")]

    def __str__(self) -> str:
        return f"extraction of {self.session_id} ({self.state})"


class ExtractionWrite(models.Model):
    """One candidate a claim proposed, by key (sha256 of its kind and source event ids), and the decision."""

    claim = models.ForeignKey(ExtractionClaim, on_delete=models.CASCADE, related_name="writes")
    key = models.CharField(max_length=64)
    decision = models.CharField(max_length=20)  # save | ask_confirmation | reject
    reason_code = models.CharField(max_length=48, blank=True)
    memory_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["claim", "key"], name="extractionwrite_unique")]


class ExtractionSignal(models.Model):
    """A kind of one-off request seen in a session (``extraction.cues.REQUESTS``), or "already proposed",
    kept as a keyed fingerprint of its name: evidence for a preference repeated across sessions, which
    reveals nothing without the tenant's key. Deleted with its session (it is no evidence then)."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+", db_index=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    user_id = models.CharField(max_length=128)
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "fingerprint"], name="extractionsignal_unique")]
        indexes = [models.Index(fields=["tenant", "user_id"], name="extractionsignal_subject")]
