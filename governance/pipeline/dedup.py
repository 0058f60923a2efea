"""Stage 7 — rule 12: refine a provisional save/ask_confirmation against active memories.

``ctx.existing`` holds the active memories of the same subject that the candidate could duplicate or
contradict (the caller may leave out those that share neither its fingerprint nor any of its aspects:
they can be neither); fingerprints are the keyed HMAC of :func:`normalize.normalize_content`. Only
those in the same scope (level and its owner: the same user, project, team, session or task) are
compared.

- The same fingerprint → ``save`` with ``duplicate_of`` (reason ``duplicate``), even when the
  provisional decision was to ask: the person already has this memory; no second row.
- A contradiction (:func:`lexicons.conflict.find_contradiction`: the same aspect with another
  value) with a memory of the same type — or, for a ``correction``, with a preference or profile
  memory, and the other way round — sets ``conflict_with`` (the caller writes
  ``memory_conflict_detected``) and then:
  an explicit source (EXPLICIT_SOURCES) → ``save`` with ``supersedes`` (a new version, the old one
  kept in history, §10.1 "explicit corrections first"); any other source → ``ask_confirmation`` by
  the user (``conflict_needs_confirmation``): an inference never overrides a confirmed memory.
  Where the table is silent: a rule awaiting admin approval stays awaiting it (a conflict never
  skips the four-eyes check); it only gains ``conflict_with`` for the approver to see.
- Short-lived types (task states, tool results, temporary context) are not checked for
  contradictions: the newer state is simply the current one, and each expires on its own.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from threading import Lock

from governance.pipeline.base import ExistingMemory, Scope, WriteContext
from governance.pipeline.lexicons.conflict import AspectValues, aspects, contradiction
from governance.pipeline.reasons import ReasonCode
from governance.pipeline.screen import screen
from governance.pipeline.validate import REQUIRED_SCOPE_FIELD
from governance.vocabulary import EXPLICIT_SOURCES, DecisionKind, MemoryType

_PREFERENCE_LIKE = frozenset({MemoryType.USER_PREFERENCE, MemoryType.USER_PROFILE, MemoryType.CORRECTION})

# Which existing types a candidate of each type can contradict.
_COMPARABLE: dict[MemoryType, frozenset[MemoryType]] = {
    MemoryType.CORRECTION: _PREFERENCE_LIKE,
    MemoryType.USER_PREFERENCE: frozenset({MemoryType.USER_PREFERENCE, MemoryType.CORRECTION}),
    MemoryType.USER_PROFILE: frozenset({MemoryType.USER_PROFILE, MemoryType.CORRECTION}),
    MemoryType.CONSTRAINT: frozenset({MemoryType.CONSTRAINT}),
    MemoryType.PROJECT_RULE: frozenset({MemoryType.PROJECT_RULE}),
    MemoryType.ORGANIZATION_RULE: frozenset({MemoryType.ORGANIZATION_RULE}),
}


class DedupStage:
    name = "dedup"

    def run(self, ctx: WriteContext) -> WriteContext:
        if ctx.provisional not in (DecisionKind.SAVE, DecisionKind.ASK_CONFIRMATION):
            return ctx
        same_scope = [memory for memory in ctx.existing if _same_scope(memory.scope, ctx.candidate.scope)]
        for memory in same_scope:
            if memory.fingerprint == ctx.fingerprint:
                return ctx.with_(
                    provisional=DecisionKind.SAVE,
                    provisional_reason=(ReasonCode.DUPLICATE, "The same memory is already active."),
                    duplicate_of=memory.id,
                    confirm_by=None,
                )
        comparable = _COMPARABLE.get(ctx.type) if ctx.type else None
        if not comparable:
            return ctx
        new = ctx.candidate.aspects
        if not new:  # it names no aspect, so it can contradict nothing
            return ctx
        for memory in same_scope:
            if memory.type not in comparable:
                continue
            old = _aspects_of(memory)
            aspect = contradiction(new, old)
            if aspect:
                ctx = ctx.with_(notes=(*ctx.notes, f"contradicts {memory.id} on {aspect}"), conflict_aspect=aspect)
                if set(old) - set(new):
                    # The old memory says more than this one replaces: superseding would lose the rest.
                    return _propose_merge(ctx, memory)
                return _resolve(ctx, memory)
        return ctx


# The aspects of stored memories, by (memory id, version, fingerprint), which names one immutable text.
# A write compares its candidate with every memory of the scope; decrypting and parsing each of them
# again on every write made a write's cost grow with the size of the scope. The cache holds ids, aspect
# names and value codes, never text.
_ASPECT_CACHE_SIZE = 50_000
_aspect_cache: OrderedDict[tuple[str, int, str], Mapping[str, AspectValues]] = OrderedDict()
_aspect_lock = Lock()


def _aspects_of(memory: ExistingMemory) -> Mapping[str, AspectValues]:
    if memory.aspects is not None:
        return memory.aspects
    key = (memory.id, memory.version, memory.fingerprint)
    with _aspect_lock:
        found = _aspect_cache.get(key)
        if found is not None:
            _aspect_cache.move_to_end(key)
            return found
    found = aspects(screen(memory.content))
    remember_aspects(memory_id=memory.id, version=memory.version, fingerprint=memory.fingerprint, found=found)
    return found


def remember_aspects(*, memory_id: str, version: int, fingerprint: str, found: Mapping[str, AspectValues]) -> None:
    """Cache what a stored memory's text says, as parsed when it was written (the candidate's own
    aspects), so the next write of its scope compares with it without opening it."""
    with _aspect_lock:
        _aspect_cache[(memory_id, version, fingerprint)] = found
        _aspect_cache.move_to_end((memory_id, version, fingerprint))
        if len(_aspect_cache) > _ASPECT_CACHE_SIZE:
            _aspect_cache.popitem(last=False)


def _same_scope(a: Scope, b: Scope) -> bool:
    """The same level and the same owner of it: one project's rule is no duplicate of another's."""
    if a.level != b.level:
        return False
    key = REQUIRED_SCOPE_FIELD[a.level]
    return key is None or getattr(a, key) == getattr(b, key)


def _propose_merge(ctx: WriteContext, memory: ExistingMemory) -> WriteContext:
    """Partial overlap (§10.2): the new memory changes one aspect of an old one that also says other
    things. The person is asked to confirm a merge; the old memory stays until they do."""
    if ctx.provisional == DecisionKind.ASK_CONFIRMATION and ctx.confirm_by == "admin":
        return ctx.with_(conflict_with=memory.id)
    return ctx.with_(
        provisional=DecisionKind.ASK_CONFIRMATION,
        provisional_reason=(
            ReasonCode.MERGE_PROPOSED,
            f"This changes the {ctx.conflict_aspect} of an earlier memory that also says other things; "
            "the user confirms how to merge them.",
        ),
        conflict_with=memory.id,
        confirm_by="user",
    )


def _resolve(ctx: WriteContext, memory: ExistingMemory) -> WriteContext:
    if ctx.provisional == DecisionKind.ASK_CONFIRMATION and ctx.confirm_by == "admin":
        return ctx.with_(conflict_with=memory.id)
    if ctx.candidate.source_type in EXPLICIT_SOURCES:
        return ctx.with_(
            provisional=DecisionKind.SAVE,
            provisional_reason=(ReasonCode.SUPERSEDES, "The user's explicit statement replaces an earlier memory."),
            conflict_with=memory.id,
            supersedes=memory.id,
            confirm_by=None,
        )
    return ctx.with_(
        provisional=DecisionKind.ASK_CONFIRMATION,
        provisional_reason=(
            ReasonCode.CONFLICT_NEEDS_CONFIRMATION,
            "This contradicts a memory the user confirmed; the user decides which one stands.",
        ),
        conflict_with=memory.id,
        confirm_by="user",
    )
