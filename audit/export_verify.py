"""Check an audit export offline: every line against its hash and the one before it, then the manifest.

Needs no database, only the file and the public key (derived from the signing key when that is what
the environment holds). The file is read line by line, so a million-event export is checked in
constant memory. The first problem found wins, and is reported with its line number in the file:
an edited event fails on its own line, a removed or reordered one on the first line after the gap,
a forged or mismatching manifest on the manifest line.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.chain import GENESIS, event_hash
from audit.export import CSV_MANIFEST_PREFIX, EXPORT_COLUMNS, FORMAT_NAME
from audit.signing import key_id, manifest_signature_ok

_HASH = re.compile(r"^[0-9a-f]{64}$")
_INT_COLUMNS = frozenset({"tenant_id", "seq"})
_STR_COLUMNS = frozenset(EXPORT_COLUMNS) - {
    "tenant_id",
    "seq",
    "memory_id",
    "requires_confirmation",
    "policy_version",
    "entity_types",
    "details",
}


class BadLine(ValueError):
    """A line that is not a well-formed event or manifest."""


@dataclass(frozen=True)
class ExportCheck:
    ok: bool
    format: str
    events: int
    line: int | None = None
    problem: str = ""
    manifest: dict[str, Any] | None = None


def csv_value(column: str, cell: str) -> Any:
    """The value ``audit.export.csv_cell`` wrote into a CSV cell."""
    if column in _INT_COLUMNS:
        return int(cell)
    if column == "policy_version":
        return int(cell) if cell else None
    if column == "requires_confirmation":
        return {"": None, "true": True, "false": False}[cell]
    if column == "memory_id":
        return cell or None
    if column in ("entity_types", "details"):
        return json.loads(cell)
    return cell


def _check_shape(record: Any) -> None:
    if not isinstance(record, dict):
        raise BadLine("not a JSON object")
    missing = [name for name in EXPORT_COLUMNS if name not in record]
    extra = sorted(set(record) - set(EXPORT_COLUMNS))
    if missing or extra:
        raise BadLine(f"fields differ from an audit event (missing {missing}, unexpected {extra})")
    for name in ("tenant_id", "seq"):
        if not isinstance(record[name], int) or isinstance(record[name], bool):
            raise BadLine(f"{name} is not an integer")
    for name in _STR_COLUMNS:
        if not isinstance(record[name], str):
            raise BadLine(f"{name} is not text")
    if not _HASH.match(record["hash"]) or not _HASH.match(record["prev_hash"]):
        raise BadLine("hash or prev_hash is not a sha256 hex digest")


@dataclass
class _Walk:
    """The chain seen so far: what the next line must link to, and what the manifest must say."""

    count: int = 0
    tenant_id: int | None = None
    first: dict[str, Any] = field(default_factory=dict)
    last: dict[str, Any] = field(default_factory=dict)

    def feed(self, record: dict[str, Any]) -> str:
        """The problem with this event, or "" if it fits the chain."""
        _check_shape(record)
        if self.tenant_id is not None and record["tenant_id"] != self.tenant_id:
            return f"event of tenant {record['tenant_id']} in an export of tenant {self.tenant_id}"
        if self.last:
            expected = self.last["seq"] + 1
            if record["seq"] != expected:
                return f"expected event #{expected}, found #{record['seq']}: events removed, inserted or reordered"
            if record["prev_hash"] != self.last["hash"]:
                return "its prev_hash does not match the hash of the line before: events removed, inserted or swapped"
        elif record["seq"] == 1 and record["prev_hash"] != GENESIS:
            return "the first event of the chain must link to the genesis hash"
        if event_hash(record) != record["hash"]:
            return "its content does not match its hash: the event was edited"
        self.count += 1
        self.tenant_id = record["tenant_id"]
        self.first = self.first or {name: record[name] for name in ("seq", "prev_hash", "hash")}
        self.last = {name: record[name] for name in ("seq", "hash")}
        return ""

    def finish(self, manifest: Any, *, public_key: Ed25519PublicKey) -> str:
        """The problem with the manifest, or "" if it is signed and matches the events."""
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
            return f"not a {FORMAT_NAME} manifest"
        if not manifest_signature_ok(manifest, public_key=public_key):
            if manifest.get("key_id") != key_id(public_key):
                return (
                    f"the manifest says it was signed by key {manifest.get('key_id')!r}, but you verify with key "
                    f"{key_id(public_key)!r}: wrong key, or a forged manifest"
                )
            return "the manifest's signature does not verify: the manifest was altered"
        expected = {
            "count": self.count,
            "first_seq": self.first.get("seq"),
            "last_seq": self.last.get("seq"),
            "first_prev_hash": self.first.get("prev_hash"),
            "first_hash": self.first.get("hash"),
            "last_hash": self.last.get("hash"),
        }
        if self.tenant_id is not None:
            expected["tenant_id"] = self.tenant_id
        for name, value in expected.items():
            if manifest.get(name) != value:
                found = manifest.get(name)
                return f"the manifest's {name} is {found!r} but the file has {value!r}: lines were removed or added"
        head = manifest.get("chain_head") or {}
        if self.last and not (isinstance(head.get("seq"), int) and head["seq"] >= self.last["seq"]):
            return "the manifest's chain head is before the last exported event"
        return ""


def _numbered(handle: TextIO) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(handle, start=1):
        yield number, line.rstrip("\r\n")


def _verify_jsonl(handle: TextIO, *, public_key: Ed25519PublicKey) -> ExportCheck:
    walk = _Walk()
    manifest: dict[str, Any] | None = None
    manifest_line = number = 0
    for number, text in _numbered(handle):
        if manifest is not None:
            return ExportCheck(False, "jsonl", walk.count, number, "data after the manifest line")
        try:
            record = json.loads(text)
        except ValueError:
            return ExportCheck(False, "jsonl", walk.count, number, "not valid JSON")
        if isinstance(record, dict) and set(record) == {"manifest"}:
            manifest, manifest_line = record["manifest"], number
            continue
        try:
            problem = walk.feed(record)
        except BadLine as exc:
            problem = f"malformed event: {exc}"
        if problem:
            return ExportCheck(False, "jsonl", walk.count, number, problem)
    return _finish(walk, "jsonl", manifest, manifest_line or number + 1, public_key=public_key)


class _CsvLines:
    """Feeds the CSV reader every line up to the manifest, and remembers the manifest and what follows."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        self.lines_read = 0
        self.manifest_text: str | None = None
        self.manifest_line = 0
        self.line_after_manifest = 0

    def __iter__(self) -> Iterator[str]:
        for line in self.handle:
            self.lines_read += 1
            if self.manifest_text is not None:
                self.line_after_manifest = self.lines_read
                return
            if line.startswith(CSV_MANIFEST_PREFIX):
                self.manifest_text = line[len(CSV_MANIFEST_PREFIX) :].rstrip("\r\n")
                self.manifest_line = self.lines_read
                continue
            yield line


def _verify_csv(handle: TextIO, *, public_key: Ed25519PublicKey) -> ExportCheck:
    walk = _Walk()
    lines = _CsvLines(handle)
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        if header is None:
            return ExportCheck(False, "csv", 0, 1, "empty file")
        if tuple(header) != EXPORT_COLUMNS:
            return ExportCheck(False, "csv", 0, 1, f"the header is not {','.join(EXPORT_COLUMNS)}")
        for row in reader:
            if len(row) != len(EXPORT_COLUMNS):
                return ExportCheck(False, "csv", walk.count, reader.line_num, "wrong number of columns")
            try:
                record = {name: csv_value(name, cell) for name, cell in zip(EXPORT_COLUMNS, row, strict=True)}
                problem = walk.feed(record)
            except (BadLine, ValueError, KeyError) as exc:
                problem = f"malformed event: {exc}"
            if problem:
                return ExportCheck(False, "csv", walk.count, reader.line_num, problem)
    except csv.Error as exc:
        return ExportCheck(False, "csv", walk.count, reader.line_num, f"malformed CSV: {exc}")
    if lines.line_after_manifest:
        return ExportCheck(False, "csv", walk.count, lines.line_after_manifest, "data after the manifest line")
    manifest: Any = None
    if lines.manifest_text is not None:
        try:
            manifest = json.loads(lines.manifest_text)
        except ValueError:
            return ExportCheck(False, "csv", walk.count, lines.manifest_line, "the manifest is not valid JSON")
    return _finish(walk, "csv", manifest, lines.manifest_line or lines.lines_read + 1, public_key=public_key)


def _finish(walk: _Walk, fmt: str, manifest: Any, line: int, *, public_key: Ed25519PublicKey) -> ExportCheck:
    if manifest is None:
        return ExportCheck(False, fmt, walk.count, line, "no manifest line: the file was cut short")
    problem = walk.finish(manifest, public_key=public_key)
    if problem:
        return ExportCheck(False, fmt, walk.count, line, problem, manifest)
    return ExportCheck(True, fmt, walk.count, manifest=manifest)


def export_file_verify(path: Path, *, public_key: Ed25519PublicKey) -> ExportCheck:
    """Verify an export file; JSONL or CSV is told apart by its first character."""
    # Undecodable bytes become U+FFFD: the line then fails its hash check and is named, not skipped.
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        first = handle.read(1)
        handle.seek(0)
        if first == "{":
            return _verify_jsonl(handle, public_key=public_key)
        return _verify_csv(handle, public_key=public_key)
