"""The tenant's policy as data: loaded from its newest PolicyVersion into an immutable snapshot."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from django.conf import settings
from django.db import connection

from governance.models import PolicyVersion
from governance.pipeline.base import PolicySnapshot
from governance.vocabulary import MemoryType

DEFAULT_POLICY_PATH = Path(settings.BASE_DIR) / "fixtures" / "default_policy.json"


class PolicyDocumentError(ValueError):
    """A policy document that can't be applied; the message names the field."""


@cache
def default_policy_document() -> dict[str, Any]:
    return json.loads(DEFAULT_POLICY_PATH.read_text())


def _positive_int(doc: dict[str, Any], name: str) -> int:
    value = doc.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise PolicyDocumentError(f"{name} must be a positive whole number")
    return value


def _optional_positive_int(doc: dict[str, Any], name: str, default: int) -> int:
    """A key added after the first policy versions were stored: absent means the shipped default."""
    return _positive_int(doc, name) if name in doc else default


EXTRACTORS = ("default", "rules", "llm")


def _extractor(doc: dict[str, Any]) -> str:
    value = doc.get("extractor", PolicySnapshot.extractor)
    if value not in EXTRACTORS:
        raise PolicyDocumentError("extractor must be one of " + ", ".join(repr(name) for name in EXTRACTORS))
    return value


def snapshot_from_document(document: dict[str, Any], *, version: int) -> PolicySnapshot:
    ttl = document.get("ttl_by_type")
    if not isinstance(ttl, dict):
        raise PolicyDocumentError("ttl_by_type must map each memory type to seconds or null")
    known = {t.value for t in MemoryType}
    for type_name, seconds in ttl.items():
        if type_name not in known:
            raise PolicyDocumentError(f"ttl_by_type: unknown memory type {type_name!r}")
        if seconds is not None and (not isinstance(seconds, int) or isinstance(seconds, bool) or seconds <= 0):
            raise PolicyDocumentError(f"ttl_by_type.{type_name} must be positive seconds or null")
    confidence = document.get("min_inference_confidence")
    if not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
        raise PolicyDocumentError("min_inference_confidence must be between 0 and 1")
    return PolicySnapshot(
        version=version,
        ttl_by_type=MappingProxyType({name: ttl.get(name) for name in known}),  # snapshots are shared
        high_sensitivity_ttl=_positive_int(document, "high_sensitivity_ttl"),
        pending_confirmation_ttl=_positive_int(document, "pending_confirmation_ttl"),
        max_content_chars=min(_positive_int(document, "max_content_chars"), settings.MEMGOV_MAX_CONTENT_CHARS),
        min_inference_confidence=float(confidence),
        max_unused_days=_positive_int(document, "max_unused_days"),
        purge_grace_days=_positive_int(document, "purge_grace_days"),
        session_retention_days=_optional_positive_int(
            document, "session_retention_days", PolicySnapshot.session_retention_days
        ),
        session_snapshot_interval=_optional_positive_int(
            document, "session_snapshot_interval", PolicySnapshot.session_snapshot_interval
        ),
        extractor=_extractor(document),
    )


@lru_cache(maxsize=512)
def snapshot_from_text(document: str, *, version: int) -> PolicySnapshot:
    """The snapshot of a stored policy document (its JSON text), parsed once per distinct text.

    Keyed by the text itself, not by tenant and version: a version number can repeat with other
    content after a rolled-back transaction, the text can't lie.
    """
    return snapshot_from_document(json.loads(document), version=version)


def policy_snapshot_for_tenant(*, tenant_id: int) -> PolicySnapshot:
    # Raw SQL: session appends read this on every call, and building the ORM query cost more than running it.
    table = connection.ops.quote_name(PolicyVersion._meta.db_table)
    sql = f"SELECT version, CAST(document AS TEXT) FROM {table} WHERE tenant_id = %s ORDER BY version DESC LIMIT 1"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_id])
        row = cursor.fetchone()
    if row is None:
        return snapshot_from_document(default_policy_document(), version=0)
    version, document = row
    return snapshot_from_text(document, version=version)
