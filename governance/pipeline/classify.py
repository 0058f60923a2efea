"""Stage 3 — the type, and whether the content is transient (input to rule 9).

When the candidate names no type, it is inferred from the content, the source and the scope level
(:func:`lexicons.types.infer_type`). A given type is kept: the agent may know more than the text
shows. If the content clearly points elsewhere, a note records it for reviewers; it never rejects.

Transient content (a passing mood, small talk, a one-off detail, "only for this task", a question or a
request for this turn: :mod:`lexicons.turn_requests`) is annotated ``transient=True``; the confirmation
stage decides what that means for the scope.
"""

from __future__ import annotations

from governance.pipeline.base import WriteContext
from governance.pipeline.lexicons.text import prepare
from governance.pipeline.lexicons.transient import transient_cue
from governance.pipeline.lexicons.turn_requests import request_for_now
from governance.pipeline.lexicons.types import infer_type
from governance.vocabulary import MemoryType

# Given types the content may reasonably look like something else: a correction restates a
# preference or profile fact, a constraint is often phrased as a preference and vice versa.
_COMPATIBLE: dict[MemoryType, frozenset[MemoryType]] = {
    MemoryType.CORRECTION: frozenset({MemoryType.USER_PREFERENCE, MemoryType.USER_PROFILE, MemoryType.CONSTRAINT}),
    MemoryType.USER_PREFERENCE: frozenset({MemoryType.CONSTRAINT, MemoryType.CORRECTION}),
    MemoryType.CONSTRAINT: frozenset({MemoryType.USER_PREFERENCE, MemoryType.PROJECT_RULE}),
    MemoryType.USER_PROFILE: frozenset({MemoryType.CORRECTION}),
    MemoryType.PROJECT_RULE: frozenset({MemoryType.CONSTRAINT, MemoryType.ORGANIZATION_RULE}),
    MemoryType.ORGANIZATION_RULE: frozenset({MemoryType.CONSTRAINT, MemoryType.PROJECT_RULE}),
}


class ClassifyStage:
    name = "classify"

    def run(self, ctx: WriteContext) -> WriteContext:
        candidate = ctx.candidate
        guess = infer_type(
            candidate.screened, level=candidate.scope.level, source=candidate.source_type, aspects=candidate.aspects
        )
        notes = list(ctx.notes)
        if candidate.type is None:
            memory_type = guess.type
            notes.append(f"type inferred as {guess.type} ({guess.cue})")
        else:
            memory_type = candidate.type
            if (
                guess.from_content
                and guess.type != memory_type
                and guess.type not in _COMPATIBLE.get(memory_type, frozenset())
            ):
                notes.append(f"type {memory_type} given, content looks like {guess.type} ({guess.cue})")
        cue = transient_cue(candidate.screened)
        asks_now = cue is None and request_for_now(prepare(candidate.screened))
        if asks_now:
            cue = "request for now"
        if cue:
            notes.append(f"transient: {cue}")
        return ctx.with_(type=memory_type, transient=cue is not None, asks_now=asks_now, notes=tuple(notes))
