"""A person's own edit of a memory: the same sensitivity rules as an agent's write, then a new version.

Editing must not be a side door around the write pipeline: text a person types into the edit box is
checked by the same detector (DESIGN rules 3 and 8) before it replaces the memory. A refusal says
what kind of data was found, never the data, and is audited with entity types only.
"""

from __future__ import annotations

from django.db import transaction

from audit.events import Event
from audit.services import audit_record
from governance.recognizers import detect_sensitivity
from governance.vocabulary import LONG_TERM_LEVELS, Level, Sensitivity
from memories.models import Memory
from memories.services.records import memory_update


class EditRefused(ValueError):
    """The new text may not be stored in this memory. ``code`` is a write-decision reason code."""

    def __init__(self, code: str, entity_types: tuple[str, ...]) -> None:
        super().__init__(code)  # the code only: exceptions end up in logs, content must not
        self.code = code
        self.entity_types = entity_types


def memory_edit(*, memory: Memory, actor: str, content: str, reason: str = "") -> Memory:
    """Replace the memory's content (a new version) unless the new text is too sensitive to keep.

    Restricted data (secrets, id numbers, diagnoses…) is refused in every scope; high-sensitivity
    data (accounts, money, permissions…) is refused in long-term scopes, as the write pipeline does.
    The memory's sensitivity label follows the new text.
    """
    finding = detect_sensitivity(content)
    code = ""
    if finding.level == Sensitivity.RESTRICTED:
        code = "restricted_data"
    elif finding.level == Sensitivity.HIGH and Level(memory.level) in LONG_TERM_LEVELS:
        code = "too_sensitive_for_long_term"
    if code:
        _audit_refusal(memory=memory, actor=actor, code=code, sensitivity=finding.level, entities=finding.entity_types)
        raise EditRefused(code, finding.entity_types)
    return memory_update(
        memory=memory, actor=actor, content=content, sensitivity=finding.level.value, reason=reason, change="edited"
    )


@transaction.atomic
def _audit_refusal(
    *, memory: Memory, actor: str, code: str, sensitivity: Sensitivity, entities: tuple[str, ...]
) -> None:
    audit_record(
        tenant_id=memory.tenant_id,
        event=Event.MEMORY_WRITE_REJECTED,
        actor=actor,
        memory_id=memory.pk,
        memory_type=memory.type,
        scope=memory.level,
        subject_id=memory.user_id,
        sensitivity=sensitivity.value,
        reason_code=code,
        entity_types=entities,
        details={"change": "edit"},
    )
