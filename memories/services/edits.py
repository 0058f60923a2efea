"""Editing a memory — a person in the browser, or an agent over the API: the write pipeline's content
rules, then a new version.

Editing must not be a side door around the write pipeline. New text is held to the rules a write of
it would meet, in the pipeline's order: the policy's length limit (rule 1), no attempt to loosen
safety, approval or audit rules (the guard's ``policy_override``), and the sensitivity rules (3 and 8:
restricted data never, high sensitivity not in long-term scopes). A type change may not turn a
memory into a rule — rules are proposed through ``memory.write`` and approved by an admin. The new
text, type and sensitivity may shorten the memory's life under the retention policy, never lengthen
it. A refusal says what kind of data was found, never the data, and is audited with entity types only.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from audit.events import Event
from audit.services import audit_record
from governance.pipeline.base import InvalidCandidate
from governance.pipeline.lexicons.override import find_policy_override
from governance.pipeline.reasons import ReasonCode
from governance.pipeline.retention import expiry_under_policy
from governance.policy import policy_snapshot_for_tenant
from governance.recognizers import detect_sensitivity
from governance.vocabulary import LONG_TERM_LEVELS, RULE_TYPES, Level, MemoryType, Sensitivity
from memories.models import Memory
from memories.services.records import memory_update


class EditRefused(ValueError):
    """The change may not be stored in this memory. ``code`` is a write-decision reason code."""

    def __init__(self, code: str, entity_types: tuple[str, ...] = ()) -> None:
        super().__init__(code)  # the code only: exceptions end up in logs, content must not
        self.code = code
        self.entity_types = entity_types


def memory_edit(
    *, memory: Memory, actor: str, content: str | None = None, type: str | None = None, reason: str = ""
) -> Memory:
    """Replace the memory's content and/or type (a new version) unless a write of the result would be refused.

    Raises :class:`InvalidCandidate` for content over the policy's limit and :class:`EditRefused`
    (audited as ``memory_write_rejected``) for a rule type, a policy override or too-sensitive data.
    The memory's sensitivity label follows the new text.
    """
    policy = policy_snapshot_for_tenant(tenant_id=memory.tenant_id)
    new_type = MemoryType(type) if type is not None else MemoryType(memory.type)
    if new_type in RULE_TYPES and new_type != memory.type:
        _refuse(memory, actor=actor, code=ReasonCode.NOT_AUTHORIZED, sensitivity=Sensitivity(memory.sensitivity))
    sensitivity = Sensitivity(memory.sensitivity)
    if content is not None:
        if len(content) > policy.max_content_chars:
            raise InvalidCandidate("content", f"must be at most {policy.max_content_chars} characters")
        finding = detect_sensitivity(content)
        sensitivity = finding.level
        code = _content_refusal(content, level=Level(memory.level), sensitivity=sensitivity)
        if code:
            _refuse(memory, actor=actor, code=code, sensitivity=sensitivity, entities=finding.entity_types)
    expires_at = expiry_under_policy(
        policy, level=Level(memory.level), type=new_type, sensitivity=sensitivity, now=timezone.now()
    )
    return memory_update(
        memory=memory,
        actor=actor,
        content=content,
        type=type,
        sensitivity=sensitivity.value if content is not None else None,
        expires_at=expires_at,
        reason=reason,
        change="edited",
    )


def _content_refusal(content: str, *, level: Level, sensitivity: Sensitivity) -> str:
    """The reason code a write of this text at this level would be rejected with (rules 4, 3, 8), or ""."""
    if find_policy_override(content) is not None:
        return ReasonCode.POLICY_OVERRIDE
    if sensitivity == Sensitivity.RESTRICTED:
        return ReasonCode.RESTRICTED_DATA
    if sensitivity == Sensitivity.HIGH and level in LONG_TERM_LEVELS:
        return ReasonCode.TOO_SENSITIVE_FOR_LONG_TERM
    return ""


def _refuse(memory: Memory, *, actor: str, code: str, sensitivity: Sensitivity, entities: tuple[str, ...] = ()) -> None:
    """Audit the refusal (entity types, never the text) and raise it."""
    _audit_refusal(memory=memory, actor=actor, code=code, sensitivity=sensitivity, entities=entities)
    raise EditRefused(code, entities)


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
