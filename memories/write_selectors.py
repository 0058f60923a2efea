"""The reads memory.write makes before deciding, one statement each.

A write runs on every agent turn, so these two reads are raw, parameterized SQL that returns
tuples: building the same queries through the ORM cost several times what the database did
(README, "The write benchmark"). Both take the tenant; neither returns another tenant's rows.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import connection

from governance.models import Membership, PolicyVersion
from governance.pipeline.base import ExistingMemory, PolicySnapshot, Scope
from governance.pipeline.lexicons.conflict import AspectValues
from governance.policy import default_policy_document, snapshot_from_document, snapshot_from_text
from governance.vocabulary import Level, MemoryType, SourceType, Status
from memories import aspect_index
from memories.models import AgentAccess, Memory, SessionOptOut, Subject
from vault.fields import decrypt_column

# Enough to find duplicates and contradictions in any realistic scope; bounded so a write never
# grows with the number of stored memories.
EXISTING_LIMIT = 300

# The column that names the owner of each level's scope (user-level memories are owned by user_id,
# which every scope carries).
_SCOPE_COLUMN = {Level.TEAM: "team", Level.PROJECT: "project", Level.SESSION: "session_id", Level.TASK: "task_id"}


@dataclass(frozen=True)
class WriteFacts:
    """The tenant's policy in force and what the policy needs to know about the person."""

    policy: PolicySnapshot
    role: str | None  # the person's membership role; None when they have no login in the tenant
    memory_paused: bool
    session_opt_out: bool
    agent_blocked: bool = False  # the subject or the person written for switched the writing agent off


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def write_facts(
    *, tenant_id: int, person: str, subject: str, session_id: str, agent_id: int | None = None
) -> WriteFacts:
    """Policy version and document, the person's role, the subject's pause and session opt-out, and whether
    the subject or the person written for switched this agent off (``agent_id``: the writing agent)."""
    # Identifiers come from model metadata; every value is a parameter.
    sql = (
        f"SELECT (SELECT version FROM {_table(PolicyVersion)} WHERE tenant_id = %s ORDER BY version DESC LIMIT 1),"  # noqa: S608
        f" (SELECT CAST(document AS TEXT) FROM {_table(PolicyVersion)} WHERE tenant_id = %s"
        "  ORDER BY version DESC LIMIT 1),"
        f" (SELECT role FROM {_table(Membership)} WHERE tenant_id = %s AND subject_id = %s),"
        f" EXISTS (SELECT 1 FROM {_table(Subject)} WHERE tenant_id = %s AND user_id = %s AND memory_paused),"
        f" EXISTS (SELECT 1 FROM {_table(SessionOptOut)} WHERE tenant_id = %s AND user_id = %s AND session_id = %s)"
    )
    params = [tenant_id, tenant_id, tenant_id, person, tenant_id, subject, tenant_id, subject, session_id]
    if agent_id is not None:
        sql += (
            f", EXISTS (SELECT 1 FROM {_table(AgentAccess)} WHERE tenant_id = %s AND agent_id = %s"  # noqa: S608
            " AND user_id IN (%s, %s) AND blocked = %s)"
        )
        params += [tenant_id, agent_id, subject, person, True]
    else:
        sql += ", 0"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        version, document, role, paused, opted_out, blocked = cursor.fetchone()
    if document is None:
        policy = snapshot_from_document(default_policy_document(), version=0)
    else:
        policy = snapshot_from_text(document, version=version)
    return WriteFacts(
        policy=policy,
        role=role if person else None,
        memory_paused=bool(paused) and bool(subject),
        session_opt_out=bool(opted_out) and bool(session_id),
        agent_blocked=bool(blocked),
    )


def existing_in_scope(
    *, tenant_id: int, scope: Scope, now: datetime, fingerprint: str, aspect_names: Iterable[str]
) -> tuple[ExistingMemory, ...]:
    """The active, unexpired memories of exactly this scope that a candidate with this fingerprint and
    these aspects could duplicate or contradict, newest first (memories/aspect_index.py).

    The comparison index leaves out the rows that share neither: an indexed row comes back with its
    aspects read from its tags; a row not indexed for its current text comes back to be parsed, its
    text decrypted on first use.
    """
    sql = (
        f"SELECT id, type, content, fingerprint, source_type, confidence, version, aspect_key, aspect_tags"  # noqa: S608
        f" FROM {_table(Memory)}"
        " WHERE tenant_id = %s AND user_id = %s AND level = %s AND status = %s"
        " AND (expires_at IS NULL OR expires_at > %s)"
    )
    params: list[object] = [
        tenant_id,
        scope.user_id,
        Level(scope.level).value,
        Status.ACTIVE.value,
        connection.ops.adapt_datetimefield_value(now),
    ]
    column = _SCOPE_COLUMN.get(scope.level)
    if column:
        sql += f" AND {connection.ops.quote_name(column)} = %s"
        params.append(getattr(scope, column))
    tags = aspect_index.name_tags(tenant_id=tenant_id, owner=scope.user_id, names=aspect_names)
    sql += " AND (fingerprint = %s OR aspect_key <> (CAST(%s AS TEXT) || SUBSTR(fingerprint, 1, %s))"
    params += [fingerprint, aspect_index.key_prefix(), aspect_index.KEY_FINGERPRINT_HEX]
    for tag in tags:
        sql += " OR aspect_tags LIKE %s"
        params.append(f"% {tag} %")
    sql += ") ORDER BY updated_at DESC LIMIT %s"
    params.append(EXISTING_LIMIT)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found = []
    for memory_id, type_name, blob, row_fingerprint, source_type, confidence, version, key, row_tags in rows:
        record_id = str(uuid.UUID(str(memory_id)))
        opener = partial(decrypt_column, Memory, "content", tenant_id=tenant_id, record_id=record_id, blob=bytes(blob))
        indexed = key == aspect_index.aspect_key(row_fingerprint)
        found.append(
            ExistingMemory(
                id=record_id,
                type=MemoryType(type_name),
                load_content=opener,
                fingerprint=row_fingerprint,
                source_type=SourceType(source_type),
                confidence=confidence,
                scope=scope,
                version=version,
                aspects=_decoded(tenant_id, scope.user_id, row_tags) if indexed else None,
            )
        )
    return tuple(found)


def _decoded(tenant_id: int, owner: str, tags: str) -> Mapping[str, AspectValues]:
    return aspect_index.decode(tenant_id=tenant_id, owner=owner, tags=tags)
