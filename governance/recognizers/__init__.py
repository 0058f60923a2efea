"""The sensitivity detector: which kinds of sensitive data a text holds, and how sensitive that is.

DESIGN rule 3 (restricted data is never stored) and §12.2 (the four sensitivity labels) rest on
it. It reports entity *types* only, never the matched values, so its result may go into audit
events as it is.

Importing this package is cheap; the presidio/spaCy engine is imported and built on the first
call to :func:`detect_sensitivity` (or :func:`warm_up`, for start-up).
"""

from __future__ import annotations

from dataclasses import dataclass

from governance.recognizers.entities import ENTITY_LEVELS, EntityType
from governance.vocabulary import Sensitivity, max_sensitivity

__all__ = [
    "ENTITY_LEVELS",
    "EntityType",
    "SensitivityFinding",
    "detect_sensitivity",
    "warm_up",
]


@dataclass(frozen=True)
class SensitivityFinding:
    level: Sensitivity
    # Sorted, unique entity type names, e.g. ("CN_RESIDENT_ID", "SECRET_GITHUB_TOKEN"); never values.
    entity_types: tuple[str, ...]


def detect_sensitivity(text: str) -> SensitivityFinding:
    """The highest sensitivity of anything found in ``text`` (Chinese or English), and what was found.

    Text with nothing recognised is ``low``. Deterministic, offline, thread-safe.
    """
    from governance.recognizers.engine import get_detector  # presidio+spaCy: seconds to import

    found = get_detector().entity_types(text)
    return SensitivityFinding(
        level=max_sensitivity(*(ENTITY_LEVELS[entity] for entity in found)),
        entity_types=tuple(sorted(entity.value for entity in found)),
    )


def warm_up() -> None:
    """Build the detector now (e.g. from an AppConfig.ready) instead of on the first request."""
    from governance.recognizers.engine import get_detector

    get_detector()
