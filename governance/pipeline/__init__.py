"""The write pipeline: a candidate memory in, a decision out (DESIGN.md "The write pipeline").

:data:`WRITE_PIPELINE` is the pipeline — the one ordered tuple of stages, each in its own module,
each documenting the rules of the table it implements. :func:`run_pipeline` runs it. Stages are
pure: no database, no settings, no network; the caller loads the policy snapshot and the existing
memories, and stores and audits the decision.
"""

from __future__ import annotations

from governance.pipeline.base import Decision, Stage, Stop, WriteContext
from governance.pipeline.classify import ClassifyStage
from governance.pipeline.confirmation import ConfirmationStage
from governance.pipeline.consent import ConsentStage
from governance.pipeline.dedup import DedupStage
from governance.pipeline.guard import GuardStage
from governance.pipeline.lexicons.prefilter import scanning
from governance.pipeline.lexicons.text import prepare
from governance.pipeline.retention import RetentionStage
from governance.pipeline.sensitivity import SensitivityStage
from governance.pipeline.validate import ValidateStage

WRITE_PIPELINE: tuple[Stage, ...] = (
    ValidateStage(),  # rule 1 (raises InvalidCandidate)
    ConsentStage(),  # rule 2
    ClassifyStage(),  # type; transient (input to rule 9)
    SensitivityStage(),  # rule 3
    GuardStage(),  # rules 4, 5, 6, 7
    ConfirmationStage(),  # rules 8, 9, 10, 11
    DedupStage(),  # rule 12
    RetentionStage(),  # TTL; the final decision
)


def run_pipeline(ctx: WriteContext, stages: tuple[Stage, ...] = WRITE_PIPELINE) -> Decision:
    """Run ``stages`` over ``ctx`` and return the decision. :class:`InvalidCandidate` propagates."""
    try:
        # The lexicon stages scan the same text many times; one pass finds which of their words occur.
        with scanning(prepare(ctx.candidate.screened)):
            for stage in stages:
                ctx = stage.run(ctx)
    except Stop as stop:
        return stop.decision
    if ctx.provisional is None:
        raise RuntimeError("the write pipeline ended without a decision")
    code, reason = ctx.provisional_reason
    return ctx.decide(ctx.provisional, code, reason)


def replace_stage(stages: tuple[Stage, ...], replacement: Stage) -> tuple[Stage, ...]:
    """``stages`` with the stage of the same name swapped, e.g. a sensitivity stage with another detector."""
    if all(stage.name != replacement.name for stage in stages):
        raise ValueError(f"no stage named {replacement.name!r}")
    return tuple(replacement if stage.name == replacement.name else stage for stage in stages)


__all__ = ["WRITE_PIPELINE", "replace_stage", "run_pipeline"]
