"""The data people own: memory records, their versions, confirmations and subjects."""

from __future__ import annotations

from django.db import models

from dbkit.ids import new_id
from governance.models import AgentClient, Tenant
from governance.vocabulary import Level, MemoryType, Sensitivity, SourceType, Status
from vault import DecryptionError
from vault.fields import EncryptedTextField


def readable(instance: models.Model, field: str = "content") -> str | None:
    """The decrypted value, or None when it can't be opened (altered ciphertext, or its key is gone)."""
    try:
        return getattr(instance, field)
    except DecryptionError:
        return None


def _choices(enum: type) -> list[tuple[str, str]]:
    return [(member.value, member.value) for member in enum]


class Subject(models.Model):
    """A tenant's subject (the person memories are about), who needs no login of their own."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="subjects")
    user_id = models.CharField(max_length=128)
    memory_paused = models.BooleanField(default=False)
    # Bumped on every change to the subject's memories; lifecycle jobs skip subjects with no change.
    changed_at = models.DateTimeField(auto_now_add=True)
    # The consolidation watermark: changed_at as of the last consolidation pass (null: never run).
    # A subject with changed_at <= consolidated_at is skipped (skipped_not_dirty).
    consolidated_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "user_id"], name="subject_unique")]


class SessionOptOut(models.Model):
    """The person said "don't save this session"."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE)
    user_id = models.CharField(max_length=128)
    session_id = models.CharField(max_length=128)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "user_id", "session_id"], name="optout_unique"),
        ]


class AgentAccess(models.Model):
    """A person's switch for one of the tenant's agents: while ``blocked``, that agent reads none of the
    subject's memories and its writes about them are refused (``subject_blocked_agent``). No row means the
    agent was never switched off. Changed only by ``memories.services.agent_access``."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    user_id = models.CharField(max_length=128)
    agent = models.ForeignKey(AgentClient, on_delete=models.CASCADE, related_name="+")
    blocked = models.BooleanField(default=False)
    changed_by = models.CharField(max_length=160)
    changed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "user_id", "agent"], name="agentaccess_unique"),
        ]


class Memory(models.Model):
    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    # No index of its own: the composite indexes below start with tenant, and an index is one more
    # B-tree every write updates.
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memories", db_index=False)
    # Scope (§12.1): who may read it.
    level = models.CharField(max_length=16, choices=_choices(Level))
    user_id = models.CharField(max_length=128, blank=True)
    team = models.CharField(max_length=63, blank=True)
    project = models.CharField(max_length=128, blank=True)
    session_id = models.CharField(max_length=128, blank=True)
    task_id = models.CharField(max_length=128, blank=True)

    type = models.CharField(max_length=32, choices=_choices(MemoryType))
    content = EncryptedTextField()
    fingerprint = models.CharField(max_length=64)
    # The comparison index (memories/aspect_index.py): which parser and text the tags describe, and
    # keyed tags of what the text says about its aspects. Empty: not indexed, parsed when compared.
    aspect_key = models.CharField(max_length=32, blank=True, default="")
    aspect_tags = models.TextField(blank=True, default="")
    source_type = models.CharField(max_length=32, choices=_choices(SourceType))
    source_message_id = models.CharField(max_length=128, blank=True)
    confidence = models.FloatField(default=1.0)
    sensitivity = models.CharField(max_length=16, choices=_choices(Sensitivity), default="low")
    entity_types = models.JSONField(default=list, blank=True)
    retention_policy = models.CharField(max_length=32, default="user_controlled")
    expires_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=24, choices=_choices(Status), default=Status.ACTIVE.value)
    version = models.PositiveIntegerField(default=1)

    # Why it was kept: the pipeline's decision (fixed texts, never content).
    reason_code = models.CharField(max_length=48, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    policy_version = models.PositiveIntegerField(default=0)
    # A pending memory that contradicts this active one; accepting it supersedes that memory.
    conflict_with = models.UUIDField(null=True, blank=True)

    agent = models.ForeignKey(AgentClient, null=True, blank=True, on_delete=models.SET_NULL)
    created_by = models.CharField(max_length=160)
    reviewed_by = models.CharField(max_length=160, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    use_count = models.PositiveIntegerField(default=0)  # times injected into a context
    # Times an answer used it (``POST /api/v1/memories/used`` with a citation id of a context read).
    cited_count = models.PositiveIntegerField(default=0)
    last_cited_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # level included: with only (tenant, user_id, status), SQLite's planner can tie it with
            # memory_level_status and scan every user-level memory of the tenant.
            models.Index(fields=["tenant", "user_id", "level", "status"], name="memory_subject_level_status"),
            models.Index(fields=["tenant", "level", "status"], name="memory_level_status"),
            # No index on fingerprint: dedup compares the fingerprints of the scope's rows, which the
            # subject index fetches; an index no query used cost every write 1.5 WAL pages.
            models.Index(fields=["status", "expires_at"], name="memory_expiry"),
        ]

    def encryption_owner(self) -> str:
        return self.user_id

    @property
    def readable_content(self) -> str | None:
        """The content, or None for an unreadable record (memories/services/integrity.py records it)."""
        return readable(self)

    def __str__(self) -> str:  # never the content
        return f"memory {self.id} ({self.type}, {self.status})"


class MemoryEmbedding(models.Model):
    """A memory's vector: content too (an embedding leaks what it encodes), so sealed like the content.

    Its row hangs off the memory (deleted with it, by a purge or an erasure, through the cascade) and
    is sealed with the same subject's data key, so destroying that key shreds it with the content.
    ``model`` is the embedder's name: the read path uses only vectors of the current one.
    """

    memory = models.OneToOneField(Memory, primary_key=True, on_delete=models.CASCADE, related_name="embedding")
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    user_id = models.CharField(max_length=128, blank=True)  # the memory's subject: whose key seals it
    model = models.CharField(max_length=200)
    vector = EncryptedTextField()  # memories.embedding.vectors.pack_vector
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "model"], name="memory_embedding_model")]

    def encryption_owner(self) -> str:
        return self.user_id

    def __str__(self) -> str:  # never the vector
        return f"embedding of memory {self.memory_id} ({self.model})"


class RetrievalIndex(models.Model):
    """One subject's retrieval index: what ranking needs of each of their active memories, sealed as one value.

    The owner is the subject (``user_id``) whose data key seals it. The index holds, per
    memory, its term counts and length (``memories.read.features``) and its vector: content-derived, so it
    is sealed with the owner's data key (shredded with it), dropped whenever one of the owner's memories is
    deleted, purged or erased, and rebuilt by ``memories.services.retrieval_index``. A read uses an entry
    only while the memory's content and vector are the ones it was made from (``memories.read.index``);
    anything newer is read from the memory itself, so the index changes how fast a read is, never what it
    returns.
    """

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    owner = models.CharField(max_length=128)  # the subject's user_id
    model = models.CharField(max_length=200, blank=True)  # the embedder whose vectors it holds ("" for none)
    entries = models.PositiveIntegerField(default=0)
    sealed = models.BinaryField()  # memories.read.index.pack_index, sealed (memories.services.retrieval_index)
    built_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "owner"], name="retrieval_index_owner")]

    def __str__(self) -> str:  # never the index
        return f"retrieval index of {self.owner} ({self.entries} memories)"


class RetrievalIndexWanted(models.Model):
    """A subject whose retrieval index a read found missing or behind: the ``retrieval`` job builds it."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    owner = models.CharField(max_length=128)
    wanted_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "owner"], name="retrieval_index_wanted_owner")]

    def __str__(self) -> str:
        return f"retrieval index wanted for {self.owner}"


class RuleDecision(models.Model):
    """One admin's decision on a shared rule: an approval, a rejection or a revocation.

    Approvals are counted per rule (a high-risk rule needs two, from two different admins), so they
    are rows, not a field on the confirmation. The reason is what a person typed: free text, so it is
    encrypted with the tenant's shared key and never copied into the audit log (which gets this row's id).
    """

    # Its values were sealed when the model lived in governance; the associated data keeps that name.
    encryption_label = "governance.ruledecision"

    class Kind(models.TextChoices):
        APPROVE = "approve"
        REJECT = "reject"
        REVOKE = "revoke"

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    # Purging a rule's memory removes its decisions with it: the reasons are about its content.
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="rule_decisions")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    actor = models.CharField(max_length=160)
    reason = EncryptedTextField(null=True, blank=True)
    memory_version = models.PositiveIntegerField()
    high_risk = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "governance_ruledecision"  # the table it had before the model moved here
        constraints = [
            models.UniqueConstraint(
                fields=["memory", "actor"], condition=models.Q(kind="approve"), name="ruledecision_one_approval_each"
            ),
        ]
        indexes = [models.Index(fields=["tenant", "memory"], name="ruledecision_memory")]
        ordering = ["created_at"]

    def encryption_owner(self) -> str:
        return ""  # rules are shared: the tenant's key, not a subject's


class MemoryVersion(models.Model):
    """Every version of a memory, the current one included: history, rollback, who and why."""

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE)
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    content = EncryptedTextField()
    type = models.CharField(max_length=32, choices=_choices(MemoryType))
    sensitivity = models.CharField(max_length=16, choices=_choices(Sensitivity))
    change = models.CharField(max_length=32)  # created | edited | rolled_back | superseded …
    change_reason = EncryptedTextField(null=True, blank=True)
    changed_by = models.CharField(max_length=160)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["memory", "version"], name="memoryversion_unique"),
        ]
        ordering = ["-version"]

    def encryption_owner(self) -> str:
        return self.memory.user_id

    @property
    def readable_content(self) -> str | None:
        return readable(self)


class Confirmation(models.Model):
    """A pending memory waiting for its subject (confirm_by=user) or another admin (confirm_by=admin)."""

    class State(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        EXPIRED = "expired"

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE)
    memory = models.OneToOneField(Memory, on_delete=models.CASCADE, related_name="confirmation")
    confirm_by = models.CharField(max_length=8)  # user | admin
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    requested_by = models.CharField(max_length=160)
    expires_at = models.DateTimeField()
    decided_by = models.CharField(max_length=160, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "state"], name="confirmation_state")]


class ErasureReceipt(models.Model):
    """Proof that a subject was erased: what, when, by whom. No content, no key material."""

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE)
    user_id = models.CharField(max_length=128)
    erased_by = models.CharField(max_length=160)
    memories_erased = models.PositiveIntegerField()
    versions_erased = models.PositiveIntegerField()
    key_destroyed = models.BooleanField()
    created_at = models.DateTimeField(auto_now_add=True)


class MergeProposal(models.Model):
    """A consolidation proposal (§10.2): a pending merged memory and the memories it would replace.

    Never applied silently: the merged memory waits for its subject's confirmation; once accepted,
    the lifecycle job archives the sources. Holds ids only, never content.
    """

    class State(models.TextChoices):
        OPEN = "open"  # the merged memory is pending confirmation
        APPLIED = "applied"  # accepted; the sources were archived
        DROPPED = "dropped"  # declined or expired; the sources stay as they are

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE)
    memory = models.OneToOneField(Memory, on_delete=models.CASCADE, related_name="merge_proposal")
    user_id = models.CharField(max_length=128)
    source_ids = models.JSONField(default=list)
    # sha256 of the sorted source ids: the same set is never proposed twice.
    sources_key = models.CharField(max_length=64)
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "sources_key"], name="mergeproposal_unique_sources")]
        indexes = [models.Index(fields=["tenant", "state"], name="mergeproposal_state")]


class MemorySource(models.Model):
    """Where a memory was learned: a session and the events in it (phase 1 extraction, seed 000).

    A memory said again in another session gets one more row; "learned only from this session" is a
    memory whose every row names it (deleting the session may then forget it). Ids only, never content.
    ``session_id`` is text: sessions live above this app, which may not import them.
    """

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="sources")
    user_id = models.CharField(max_length=128)
    session_id = models.CharField(max_length=128)
    session_at = models.DateTimeField(null=True, blank=True)  # when the conversation began ("learned on …")
    event_ids = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["memory", "session_id"], name="memorysource_unique"),
        ]
        indexes = [models.Index(fields=["tenant", "session_id"], name="memorysource_session")]


class ContextRead(models.Model):
    """One context read that injected memories: its id and the item index make each item's citation id.

    The agent reports the citations an answer used (``memory_used``); each (read, item) counts once.
    """

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    user_id = models.CharField(max_length=128)
    agent = models.ForeignKey(AgentClient, null=True, blank=True, on_delete=models.SET_NULL)
    memory_ids = models.JSONField(default=list)  # in item order
    used = models.JSONField(default=list)  # item indexes already reported as used
    created_at = models.DateTimeField(auto_now_add=True)


class JobLock(models.Model):
    """A named lock held by one run at a time (phase 2's global lock): a row, so it works the same on
    SQLite and PostgreSQL. A holder that dies leaves a lease that runs out."""

    name = models.CharField(max_length=64, primary_key=True)
    holder = models.CharField(max_length=64, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    # The watermark of the last successful run (seed 000): the newest change it saw.
    watermark = models.DateTimeField(null=True, blank=True)
