"""Helpers for the audit export tests: run an export to bytes, and the key that verifies it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from django.db import connection

from audit.db import triggers_disabled
from audit.export import ExportFormat, audit_export_start, audit_export_stream
from audit.signing import signing_key_load
from governance.models import Tenant
from tests.pg_roles import as_owner

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


@contextmanager
def tampering() -> Iterator[None]:
    """What someone with the owner's access to the database does: log in as the owner, drop the triggers.
    Needs committed data (``django_db(transaction=True)``): under the service role it is another login."""
    with as_owner(), triggers_disabled(connection):
        yield
