"""Signed chain-head checkpoints, written outside the database.

A hash chain alone can't see its tail cut off, or every hash recomputed after an edit: whoever can write
the tables can write a consistent forgery. So, at intervals (the ``memgov.audit.checkpoint`` beat job)
and at every export, each tenant's head — (tenant, seq, hash, time) — is signed with the audit signing
key (Ed25519, audit/signing.py) and handed to a sink outside the database. ``verify_chain`` compares the
chain with the latest checkpoint: an event the checkpoint names must still be there with the same hash.

A new checkpoint is only written over a chain that still extends the previous one, so a rewrite can't be
laundered into a fresh checkpoint (:class:`CheckpointMismatch`).

The sink is ``MEMGOV_AUDIT_CHECKPOINT_SINK``, the dotted path of a class with ``write`` and ``records``
(see :class:`CheckpointSink`); the default is :class:`DirectorySink` on ``MEMGOV_AUDIT_CHECKPOINT_DIR``
(``var/audit-checkpoints``). Point it at storage the database's users can't rewrite — another host, an
object store with object lock, a write-once mount (docs/security.md).
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from django.conf import settings
from django.utils import timezone
from django.utils.module_loading import import_string

from audit.chain import GENESIS
from audit.models import AuditChainHead, AuditEvent
from audit.signing import ALGORITHM, SigningKeyMissing, key_id, signing_key_load

FORMAT = "memgov-audit-checkpoint/1"


class CheckpointMismatch(Exception):
    """The stored chain no longer extends its last checkpoint: it was cut or rewritten."""


class BadCheckpoint(ValueError):
    """A checkpoint record that is malformed or whose signature does not verify."""


@dataclass(frozen=True)
class Checkpoint:
    tenant_id: int
    seq: int
    hash: str
    at: str  # ISO 8601, UTC
    key_id: str = ""
    signature: str = ""

    def body(self) -> bytes:
        fields = {"format": FORMAT, "tenant_id": self.tenant_id, "seq": self.seq, "hash": self.hash, "at": self.at}
        return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()

    def record(self) -> dict[str, Any]:
        return {"format": FORMAT, "algorithm": ALGORITHM, **asdict(self)}


def checkpoint_parse(record: Any, *, public_key: Ed25519PublicKey) -> Checkpoint:
    """A checkpoint from its stored record, or BadCheckpoint if it is malformed or not signed by this key."""
    if not isinstance(record, dict) or record.get("format") != FORMAT or record.get("algorithm") != ALGORITHM:
        raise BadCheckpoint("not a memgov audit checkpoint")
    try:
        checkpoint = Checkpoint(
            tenant_id=int(record["tenant_id"]),
            seq=int(record["seq"]),
            hash=str(record["hash"]),
            at=str(record["at"]),
            key_id=str(record.get("key_id", "")),
            signature=str(record["signature"]),
        )
        public_key.verify(base64.b64decode(checkpoint.signature, validate=True), checkpoint.body())
    except (KeyError, TypeError, ValueError, binascii.Error, InvalidSignature):
        raise BadCheckpoint("its signature does not verify with the audit signing key") from None
    return checkpoint


class CheckpointSink(Protocol):
    """Where checkpoints go. ``records`` yields a tenant's stored records, oldest first.

    A write-only sink (syslog) can't be compared against by ``verify_audit``: pair it with a readable one
    (:class:`FanOutSink` writes to several).
    """

    def write(self, record: dict[str, Any]) -> None: ...

    def records(self, *, tenant_id: int) -> Iterable[Any]: ...


class DirectorySink:
    """One file per checkpoint, ``<dir>/<tenant_id>/<seq, 20 digits>-<time>.json``, created 0600, never
    overwritten. The newest is the one with the highest sequence number."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.directory = Path(directory or settings.MEMGOV_AUDIT_CHECKPOINT_DIR)

    def _folder(self, tenant_id: int) -> Path:
        return self.directory / str(int(tenant_id))

    def write(self, record: dict[str, Any]) -> None:
        folder = self._folder(record["tenant_id"])
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = record["at"].replace(":", "").replace("-", "")
        path = folder / f"{record['seq']:020d}-{stamp}.json"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(record, handle, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())

    def paths(self, *, tenant_id: int) -> list[Path]:
        folder = self._folder(tenant_id)
        return sorted(folder.glob("*.json")) if folder.is_dir() else []

    def records(self, *, tenant_id: int) -> Iterable[Any]:
        for path in self.paths(tenant_id=tenant_id):
            try:
                yield json.loads(path.read_text())
            except (OSError, ValueError):
                yield None  # unreadable: checkpoint_parse reports it

    def latest(self, *, tenant_id: int) -> Checkpoint | None:
        return latest_checkpoint(tenant_id=tenant_id, sink=self)


class FanOutSink:
    """Write every checkpoint to several sinks; read from the first (e.g. a directory, then syslog)."""

    def __init__(self, *sinks: CheckpointSink) -> None:
        self.sinks = sinks

    def write(self, record: dict[str, Any]) -> None:
        for sink in self.sinks:
            sink.write(record)

    def records(self, *, tenant_id: int) -> Iterable[Any]:
        return self.sinks[0].records(tenant_id=tenant_id)

    def latest(self, *, tenant_id: int) -> Checkpoint | None:
        return latest_checkpoint(tenant_id=tenant_id, sink=self)


def checkpoint_sink() -> DirectorySink | CheckpointSink:
    path = settings.MEMGOV_AUDIT_CHECKPOINT_SINK
    return import_string(path)() if path else DirectorySink()


def checkpoints_of(*, tenant_id: int, sink: CheckpointSink | None = None) -> list[Checkpoint]:
    """The tenant's checkpoints, oldest first; BadCheckpoint if any record is forged or unreadable."""
    records = list((sink or checkpoint_sink()).records(tenant_id=tenant_id))
    if not records:
        return []
    try:
        public_key = signing_key_load(create=False).public_key()
    except SigningKeyMissing as exc:
        raise BadCheckpoint(f"no audit signing key to check the checkpoints with ({exc})") from None
    found = [checkpoint_parse(record, public_key=public_key) for record in records]
    for checkpoint in found:
        if checkpoint.tenant_id != tenant_id:
            raise BadCheckpoint(f"a checkpoint of tenant {checkpoint.tenant_id} is filed under tenant {tenant_id}")
    return sorted(found, key=lambda c: c.seq)


def latest_checkpoint(*, tenant_id: int, sink: CheckpointSink | None = None) -> Checkpoint | None:
    found = checkpoints_of(tenant_id=tenant_id, sink=sink)
    return found[-1] if found else None


def stored_hash(*, tenant_id: int, seq: int) -> str | None:
    """The stored hash of event #seq (GENESIS for #0), or None when there is no such event."""
    if seq == 0:
        return GENESIS
    return AuditEvent.objects.filter(tenant_id=tenant_id, seq=seq).values_list("hash", flat=True).first()


def chain_extends(checkpoint: Checkpoint) -> bool:
    """Whether the stored chain still holds the checkpointed event unchanged (O(1): one indexed read)."""
    return stored_hash(tenant_id=checkpoint.tenant_id, seq=checkpoint.seq) == checkpoint.hash


def checkpoint_signed(*, tenant_id: int, seq: int, head_hash: str, at: datetime | None = None) -> Checkpoint:
    key = signing_key_load()
    moment = (at or timezone.now()).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    unsigned = Checkpoint(tenant_id=tenant_id, seq=seq, hash=head_hash, at=moment, key_id=key_id(key.public_key()))
    signature = base64.b64encode(key.sign(unsigned.body())).decode()
    return Checkpoint(**{**asdict(unsigned), "signature": signature})


def audit_checkpoint_at(*, tenant_id: int, seq: int, head_hash: str, sink: CheckpointSink | None = None) -> Checkpoint:
    """Sign and store a checkpoint of (seq, hash), after checking that the chain still extends the last one.

    Raises CheckpointMismatch (and stores nothing) when it doesn't: a chain rewritten or cut since the
    last checkpoint is reported, never covered over by a new checkpoint.
    """
    sink = sink or checkpoint_sink()
    previous = latest_checkpoint(tenant_id=tenant_id, sink=sink)
    if previous is not None:
        if previous.seq > seq or not chain_extends(previous):
            raise CheckpointMismatch(
                f"tenant {tenant_id}: the chain no longer extends checkpoint #{previous.seq} of {previous.at}; "
                "run verify_audit"
            )
        if previous.seq == seq and previous.hash == head_hash:
            return previous  # nothing new since: no file per idle interval
    checkpoint = checkpoint_signed(tenant_id=tenant_id, seq=seq, head_hash=head_hash)
    sink.write(checkpoint.record())
    return checkpoint


def audit_checkpoint_write(*, tenant_id: int, sink: CheckpointSink | None = None) -> Checkpoint:
    """Checkpoint the tenant's chain head as it is now."""
    head = AuditChainHead.objects.filter(tenant_id=tenant_id).values_list("seq", "head_hash").first()
    seq, head_hash = head if head is not None else (0, GENESIS)
    return audit_checkpoint_at(tenant_id=tenant_id, seq=seq, head_hash=head_hash, sink=sink)
