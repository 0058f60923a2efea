"""The write pipeline's contract: what a stage receives, what it may annotate, how it stops.

A stage is a small object with a ``name`` and ``run(ctx) -> ctx``. It either returns the context
(annotated for the stages after it) or raises :class:`Stop` carrying the final :class:`Decision`.
Stages never touch the database or settings: everything they need travels in the
:class:`WriteContext` (the candidate, the actor, the tenant's policy snapshot, the existing memories
of the same subject and scope, already decrypted by the caller).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import Any, Protocol

from governance.vocabulary import DecisionKind, Level, MemoryType, Role, Sensitivity, SourceType


@dataclass(frozen=True)
class Scope:
    level: Level
    user_id: str = ""
    team: str = ""
    project: str = ""
    session_id: str = ""
    task_id: str = ""


@dataclass(frozen=True)
class Actor:
    """Who the memory is written for/by, as the policy sees them."""

    role: Role
    user_id: str = ""
    memory_paused: bool = False
    session_opt_out: bool = False
    # The person the memory is about (or written for) switched the writing agent off.
    agent_blocked: bool = False
    # Teams this actor owns: a team_owner may propose rules for these teams only.
    owned_teams: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Candidate:
    content: str
    scope: Scope
    source_type: SourceType
    type: MemoryType | None = None
    source_message_id: str = ""
    confidence: float = 1.0
    sensitivity: Sensitivity | None = None  # declared by the agent; only ever raised by detection
    expires_at: datetime | None = None  # requested; only ever shortens the policy's TTL
    requires_confirmation: bool = False  # the agent asks for the person's confirmation (§8.2); never weakened

    @cached_property
    def screened(self) -> str:
        """The content as a reader sees it (:func:`governance.pipeline.screen.screen`): what every
        lexicon and recognizer reads. Only read, never stored: the memory keeps ``content``."""
        from governance.pipeline.screen import screen

        return screen(self.content)

    @cached_property
    def decoded(self) -> str | None:
        """The screened content with its embedded base64 / hex / percent / ROT13 spans decoded, or None
        when it holds none (:mod:`governance.pipeline.decode`). Only read, never stored."""
        from governance.pipeline.screen import decoded_reading

        return decoded_reading(self.screened)

    @cached_property
    def readings(self) -> tuple[str, ...]:
        """Every reading the injection checks see: screened, leetspeak undone, decoded."""
        from governance.pipeline.screen import readings_of

        return readings_of(self.screened, self.decoded)

    @cached_property
    def unread_language(self) -> str | None:
        """The language of the first passage the gate doesn't read (:mod:`governance.pipeline.language`),
        or None when it reads all of it. Told from the letters as written (case too: capitalized words are
        names), not from ``screened``, whose ASCII folding would erase the accents that tell languages
        apart."""
        from governance.pipeline.language import unread_language
        from governance.pipeline.lexicons.text import prepare
        from governance.pipeline.screen import unhidden

        return unread_language(prepare(unhidden(self.content), fold=False))

    @cached_property
    def aspects(self) -> Mapping[str, Any]:
        """What the content says about each aspect (format, language, …): parsed once, read by the
        classify and dedup stages (values are ``lexicons.conflict.AspectValues``)."""
        from governance.pipeline.lexicons.conflict import aspects

        return aspects(self.screened)


@dataclass(frozen=True)
class ExistingMemory:
    """An active memory of the same subject and scope, as the caller loaded it for comparison.

    Its text is opened on first use (``load_content``, e.g. a decryption): most writes compare
    fingerprints only, and a contradiction check can usually reuse what it parsed of this very
    version before, so most writes never decrypt the memories of their scope.
    """

    id: str
    type: MemoryType
    fingerprint: str
    source_type: SourceType
    confidence: float
    scope: Scope
    load_content: Callable[[], str] = field(repr=False, compare=False)
    version: int = 1  # (id, version) names one immutable text
    # What its text says about each aspect, when the caller kept it with the row (the comparison
    # index): then the contradiction check needn't open or parse the text.
    aspects: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def content(self) -> str:
        return self.load_content()


@dataclass(frozen=True)
class PolicySnapshot:
    """The tenant's governance policy, immutable for the duration of one decision."""

    version: int
    # TTL in seconds per memory type; None means no expiry (user controlled).
    ttl_by_type: Mapping[str, int | None]
    # High-sensitivity content kept in session/task scope lives at most this long.
    high_sensitivity_ttl: int = 3600
    pending_confirmation_ttl: int = 7 * 24 * 3600
    max_content_chars: int = 2000
    min_inference_confidence: float = 0.5
    max_unused_days: int = 180
    purge_grace_days: int = 30
    # Sessions: raw history of an ended session is purged after this many days; a full state snapshot
    # is written every this many events along a branch.
    session_retention_days: int = 30
    session_snapshot_interval: int = 50
    # Phase-1 extraction (conversations/extraction/run.py): "default" is the deployment's choice (the LLM
    # extractor when MEMGOV_EXTRACTOR_URL is set, else the rules); "rules" keeps every conversation inside
    # the deployment whatever is configured; "llm" asks for the configured endpoint.
    extractor: str = "default"


@dataclass(frozen=True)
class Decision:
    kind: DecisionKind
    reason_code: str
    reason: str
    type: MemoryType | None = None
    sensitivity: Sensitivity = Sensitivity.LOW
    entity_types: tuple[str, ...] = ()
    expires_at: datetime | None = None
    confirm_by: str | None = None  # "user" | "admin" for ask_confirmation
    duplicate_of: str | None = None  # existing memory id, with deduplicated save
    conflict_with: str | None = None  # existing memory id that contradicts the candidate
    supersedes: str | None = None  # existing memory id that the new memory replaces
    conflict_aspect: str | None = None  # the aspect (language, format, …) the conflict is about
    policy_version: int = 0

    @property
    def deduplicated(self) -> bool:
        return self.duplicate_of is not None


@dataclass(frozen=True)
class WriteContext:
    candidate: Candidate
    actor: Actor
    policy: PolicySnapshot
    now: datetime
    fingerprint: str  # keyed fingerprint of the normalized candidate content
    existing: tuple[ExistingMemory, ...] = ()
    # Annotations, filled in as the stages run.
    type: MemoryType | None = None
    sensitivity: Sensitivity = Sensitivity.LOW
    entity_types: tuple[str, ...] = ()
    transient: bool = False
    asks_now: bool = False  # transient because it is a question or a request for this turn
    provisional: DecisionKind | None = None
    provisional_reason: tuple[str, str] = ("", "")
    confirm_by: str | None = None
    duplicate_of: str | None = None
    conflict_with: str | None = None
    supersedes: str | None = None
    conflict_aspect: str | None = None
    expires_at: datetime | None = None
    notes: tuple[str, ...] = field(default=())

    def with_(self, **changes: object) -> WriteContext:
        return replace(self, **changes)

    def decide(self, kind: DecisionKind, reason_code: str, reason: str) -> Decision:
        return Decision(
            kind=kind,
            reason_code=reason_code,
            reason=reason,
            type=self.type or self.candidate.type,
            sensitivity=self.sensitivity,
            entity_types=self.entity_types,
            expires_at=self.expires_at,
            confirm_by=self.confirm_by,
            duplicate_of=self.duplicate_of,
            conflict_with=self.conflict_with,
            supersedes=self.supersedes,
            conflict_aspect=self.conflict_aspect,
            policy_version=self.policy.version,
        )


class Stop(Exception):
    """Raised by a stage to end the pipeline with a decision."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.reason_code)
        self.decision = decision


class InvalidCandidate(Exception):
    """Rule 1: the candidate is malformed or out of the caller's rights; answered as a 4xx."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class Stage(Protocol):
    name: str

    def run(self, ctx: WriteContext) -> WriteContext: ...
