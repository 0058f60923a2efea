"""Streamed export of a tenant's audit events (JSONL or CSV) ending in a signed manifest.

An export covers one contiguous run of the tenant's chain: from the first event at or after ``from``
to the last event before ``to`` (a half-open range). Taking a seq range rather than filtering each row
by time matters: ``created_at`` is stamped just before the chain lock is taken, so two concurrent
events can be a microsecond out of order, and a per-row time filter could leave a hole in the chain
that would look like tampering.

Rows are read with a database iterator in chunks and written out as they come, so memory stays the
same whether the export holds a thousand events or a million. Each line holds an event's stored
fields exactly as the hash covers them (``audit.chain.normalized``) plus its stored hash, so
``verify_audit_export`` can recompute every hash offline. Nothing else is in an audit row, and so
nothing else (no memory content) can be in an export.

The last line is the manifest: in JSONL ``{"manifest": {...}}``; in CSV a comment line
``# manifest {...}`` after the data rows (drop it with ``skipfooter=1`` or by skipping lines that
start with ``#``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from enum import StrEnum
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.db import transaction
from django.db.models import Max, Min
from django.http import StreamingHttpResponse
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from audit.chain import CHAINED_FIELDS, normalized
from audit.checkpoints import audit_checkpoint_at, chain_extends, latest_checkpoint
from audit.events import Event
from audit.models import AuditEvent
from audit.services import audit_record
from audit.signing import manifest_sign, signing_key_load
from governance.models import Tenant

FORMAT_NAME = "memgov-audit-export/1"
EXPORT_COLUMNS: tuple[str, ...] = (*CHAINED_FIELDS, "hash")
CSV_MANIFEST_PREFIX = "# manifest "
_BARE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DEFAULT_CHUNK_SIZE = 1000
# Lines are gathered into writes of about this size: fewer, larger chunks for the web server.
WRITE_BYTES = 64 * 1024


class ExportFormat(StrEnum):
    JSONL = "jsonl"
    CSV = "csv"


CONTENT_TYPES = {ExportFormat.JSONL: "application/x-ndjson; charset=utf-8", ExportFormat.CSV: "text/csv; charset=utf-8"}


class ChainDoesNotMatchCheckpoint(Exception):
    """The stored chain no longer extends its latest signed checkpoint: no export is signed over it."""


class ExportInputError(ValueError):
    """A bad export parameter; ``field`` names it (format, from or to)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def timestamp_text(value: datetime) -> str:
    """UTC with microseconds and a Z: the same form the chain hashes ``created_at`` in."""
    return normalized({"created_at": value})["created_at"]


def _bound_parse(text: str, *, field: str, is_end: bool) -> datetime | None:
    text = (text or "").strip()
    if not text:
        return None
    moment = day = None
    try:
        # A bare date first: parse_datetime would read "2025-01-31" as that day's midnight.
        day = parse_date(text) if _BARE_DATE.match(text) else None
        moment = None if day else parse_datetime(text)
    except ValueError:
        pass
    if moment is None and day is None:
        raise ExportInputError(field, f"{field}: use an ISO 8601 date or date-time, e.g. 2025-01-31T09:00:00Z")
    try:
        if day is not None:
            # A bare date means the whole day: from its start, or up to the start of the next day.
            moment = datetime.combine(day + timedelta(days=1) if is_end else day, time.min)
        assert moment is not None
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment, timezone.get_default_timezone())
        return moment.astimezone(UTC)
    except OverflowError:
        raise ExportInputError(field, f"{field}: out of range") from None


def time_range_parse(*, start: str | None, end: str | None) -> tuple[datetime | None, datetime | None]:
    """``from``/``to`` text as a half-open range [start, end); either may be open. ExportInputError if bad.

    ISO 8601 date-times (naive ones are in the server's time zone, UTC by default) or bare dates,
    where a bare ``to`` date includes that whole day.
    """
    start_at = _bound_parse(start or "", field="from", is_end=False)
    end_at = _bound_parse(end or "", field="to", is_end=True)
    # A bare-date ``to`` already reaches the next midnight, so from == that midnight is reversed too.
    end_is_date = bool(_BARE_DATE.match((end or "").strip()))
    if start_at and end_at and (start_at > end_at or (end_is_date and start_at >= end_at)):
        raise ExportInputError("to", "to: must not be before from")
    return start_at, end_at


def export_params_parse(
    *, fmt: str | None, start: str | None, end: str | None
) -> tuple[ExportFormat, datetime | None, datetime | None]:
    """Validate the export's parameters; raise ExportInputError naming the first bad one."""
    fmt_text = (fmt or ExportFormat.JSONL.value).strip().lower()
    try:
        export_format = ExportFormat(fmt_text)
    except ValueError:
        raise ExportInputError("format", "format: use jsonl or csv") from None
    return (export_format, *time_range_parse(start=start, end=end))


@dataclass(frozen=True)
class AuditExport:
    """An export that has been started (and recorded); ``audit_export_stream`` writes it out."""

    tenant_id: int
    tenant_slug: str
    format: ExportFormat
    start: datetime | None
    end: datetime
    first_seq: int | None
    last_seq: int | None
    chain_head_seq: int
    chain_head_hash: str
    generated_at: datetime
    generated_by: str
    signing_key: Ed25519PrivateKey
    chunk_size: int = DEFAULT_CHUNK_SIZE

    @property
    def filename(self) -> str:
        stamp = self.generated_at.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        return f"memgov-audit-{self.tenant_slug}-{stamp}.{self.format.value}"


def _seq_range(*, tenant_id: int, start: datetime | None, end: datetime) -> tuple[int | None, int | None]:
    rows = AuditEvent.objects.filter(tenant_id=tenant_id, created_at__lt=end)
    if start is not None:
        rows = rows.filter(created_at__gte=start)
    bounds = rows.aggregate(first=Min("seq"), last=Max("seq"))
    return bounds["first"], bounds["last"]


def audit_export_start(
    *,
    tenant: Tenant,
    fmt: ExportFormat,
    start: datetime | None,
    end: datetime | None,
    actor: str,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
) -> AuditExport:
    """Fix the export's range and record ``audit_exported`` before a byte is sent.

    Recording at the start means an export is in the log even if the download is abandoned; the
    event lands after the exported range, and the manifest's chain head is that very event, so an
    auditor can later find the export in the live chain. Raises SigningKeyMissing (nothing recorded)
    when no signing key is configured, and ChainDoesNotMatchCheckpoint (nothing recorded) when the chain
    was cut or rewritten since its last checkpoint: a rewritten chain never gets a signed manifest. The
    export's chain head is checkpointed too.
    """
    key = signing_key_load()
    previous = latest_checkpoint(tenant_id=tenant.pk)
    if previous is not None and not chain_extends(previous):
        raise ChainDoesNotMatchCheckpoint(
            f"the audit chain no longer matches its checkpoint #{previous.seq} of {previous.at}: run verify_audit"
        )
    generated_at = timezone.now()
    end_at = end or generated_at
    first_seq, last_seq = _seq_range(tenant_id=tenant.pk, start=start, end=end_at)
    with transaction.atomic():
        recorded = audit_record(
            tenant_id=tenant.pk,
            event=Event.AUDIT_EXPORTED,
            actor=actor,
            details={
                "format": fmt.value,
                "from": timestamp_text(start) if start else None,
                "to": timestamp_text(end_at),
                "first_seq": first_seq,
                "last_seq": last_seq,
            },
        )
    audit_checkpoint_at(tenant_id=tenant.pk, seq=recorded.seq, head_hash=recorded.hash)
    return AuditExport(
        tenant_id=tenant.pk,
        tenant_slug=tenant.slug,
        format=fmt,
        start=start,
        end=end_at,
        first_seq=first_seq,
        last_seq=last_seq,
        chain_head_seq=recorded.seq,
        chain_head_hash=recorded.hash,
        generated_at=generated_at,
        generated_by=actor,
        signing_key=key,
        chunk_size=chunk_size,
    )


def csv_cell(value: Any) -> str:
    """One CSV cell; the verifier's ``csv_value`` turns it back into exactly this value."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return str(value)


class _JsonlWriter:
    def header(self) -> str:
        return ""

    def row(self, record: dict[str, Any]) -> str:
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"

    def manifest(self, manifest: dict[str, Any]) -> str:
        return json.dumps({"manifest": manifest}, ensure_ascii=False, separators=(",", ":")) + "\n"


class _CsvWriter:
    def __init__(self) -> None:
        self._buffer = io.StringIO()
        self._writer = csv.writer(self._buffer, lineterminator="\r\n")

    def _take(self) -> str:
        text = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        return text

    def header(self) -> str:
        self._writer.writerow(EXPORT_COLUMNS)
        return self._take()

    def row(self, record: dict[str, Any]) -> str:
        self._writer.writerow([csv_cell(record[name]) for name in EXPORT_COLUMNS])
        return self._take()

    def manifest(self, manifest: dict[str, Any]) -> str:
        return CSV_MANIFEST_PREFIX + json.dumps(manifest, ensure_ascii=False, separators=(",", ":")) + "\r\n"


def _records(export: AuditExport) -> Iterator[dict[str, Any]]:
    if export.first_seq is None or export.last_seq is None:
        return
    rows = (
        AuditEvent.objects.filter(tenant_id=export.tenant_id, seq__gte=export.first_seq, seq__lte=export.last_seq)
        .order_by("seq")
        .values_list(*EXPORT_COLUMNS)
    )
    for values in rows.iterator(chunk_size=export.chunk_size):
        stored = dict(zip(EXPORT_COLUMNS, values, strict=True))
        record = normalized(stored)
        record["hash"] = stored["hash"]
        yield record


def audit_export_stream(export: AuditExport) -> Iterator[bytes]:
    """The export's bytes, event by event, then the signed manifest. Constant memory."""
    writer = _JsonlWriter() if export.format is ExportFormat.JSONL else _CsvWriter()
    pending: list[str] = [writer.header()]
    size = len(pending[0])
    count = 0
    first: dict[str, Any] | None = None
    last: dict[str, Any] | None = None
    for record in _records(export):
        count += 1
        first = first or record
        last = record
        line = writer.row(record)
        pending.append(line)
        size += len(line)
        if size >= WRITE_BYTES:
            yield "".join(pending).encode()
            pending, size = [], 0
    manifest = {
        "format": FORMAT_NAME,
        "tenant": export.tenant_slug,
        "tenant_id": export.tenant_id,
        "from": timestamp_text(export.start) if export.start else None,
        "to": timestamp_text(export.end),
        "count": count,
        "first_seq": first["seq"] if first else None,
        "last_seq": last["seq"] if last else None,
        "first_prev_hash": first["prev_hash"] if first else None,
        "first_hash": first["hash"] if first else None,
        "last_hash": last["hash"] if last else None,
        "chain_head": {"seq": export.chain_head_seq, "hash": export.chain_head_hash},
        "columns": list(EXPORT_COLUMNS),
        "hash_algorithm": "sha256",
        "generated_at": timestamp_text(export.generated_at),
        "generated_by": export.generated_by,
    }
    pending.append(writer.manifest(manifest_sign(manifest, key=export.signing_key)))
    yield "".join(pending).encode()


def audit_export_response(export: AuditExport) -> StreamingHttpResponse:
    """The export as a download, streamed as it is read from the database."""
    response = StreamingHttpResponse(audit_export_stream(export), content_type=CONTENT_TYPES[export.format])
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # let a proxy pass the stream through instead of buffering it
    return response
