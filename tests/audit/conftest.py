"""Helpers for the audit export tests: run an export to bytes, and the key that verifies it."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.export import ExportFormat, audit_export_start, audit_export_stream
from audit.signing import signing_key_load
from governance.models import Tenant

RunExport = Callable[..., bytes]


@pytest.fixture
def run_export() -> RunExport:
    def run(
        tenant: Tenant,
        *,
        fmt: str = "jsonl",
        start: datetime | None = None,
        end: datetime | None = None,
        actor: str = "user:dave",
        chunk_size: int = 1000,
    ) -> bytes:
        export = audit_export_start(
            tenant=tenant, fmt=ExportFormat(fmt), start=start, end=end, actor=actor, chunk_size=chunk_size
        )
        return b"".join(audit_export_stream(export))

    return run


@pytest.fixture
def public_key() -> Ed25519PublicKey:
    return signing_key_load(create=False).public_key()


def _jsonl_split(body: bytes) -> tuple[list[dict], dict]:
    lines = [json.loads(line) for line in body.decode().splitlines()]
    return lines[:-1], lines[-1]["manifest"]


@pytest.fixture
def jsonl_split() -> Callable[[bytes], tuple[list[dict], dict]]:
    """(events, manifest) of a JSONL export."""
    return _jsonl_split
