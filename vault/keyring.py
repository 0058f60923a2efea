"""The master keyring: versioned 256-bit keys from MEMGOV_MASTER_KEY or a key file, never from code.

Format, in the variable or the file: one key per line (or comma-separated), either ``BASE64`` (version 1)
or ``VERSION:BASE64``. The highest version wraps new data keys; older ones still unwrap until
``manage.py rotate_keys`` has re-wrapped everything.
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

KEY_BYTES = 32


@dataclass(frozen=True)
class MasterKeyring:
    keys: dict[int, bytes]

    @property
    def current_version(self) -> int:
        return max(self.keys)

    @property
    def current(self) -> bytes:
        return self.keys[self.current_version]

    def get(self, version: int) -> bytes:
        try:
            return self.keys[version]
        except KeyError:
            raise ImproperlyConfigured(
                f"Master key version {version} is not configured; add it to MEMGOV_MASTER_KEY(_FILE)"
            ) from None


def parse_keyring(text: str, *, origin: str) -> MasterKeyring:
    keys: dict[int, bytes] = {}
    entries = [e.strip() for line in text.splitlines() for e in line.split(",")]
    for entry in entries:
        if not entry or entry.startswith("#"):
            continue
        version_text, _, encoded = entry.rpartition(":")
        try:
            version = int(version_text) if version_text else 1
            key = base64.b64decode(encoded, validate=True)
        except (ValueError, binascii.Error):
            raise ImproperlyConfigured(
                f"{origin}: each key must be BASE64 or VERSION:BASE64 of {KEY_BYTES} bytes"
            ) from None
        if len(key) != KEY_BYTES:
            raise ImproperlyConfigured(f"{origin}: key version {version} is {len(key)} bytes, need {KEY_BYTES} bytes")
        if version in keys:
            raise ImproperlyConfigured(f"{origin}: key version {version} appears twice")
        keys[version] = key
    if not keys:
        raise ImproperlyConfigured(f"{origin} holds no key")
    return MasterKeyring(keys)


def new_key_line(version: int) -> str:
    return f"{version}:{base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode()}"


def _ensure_dev_key_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as handle:
        handle.write(new_key_line(1) + "\n")


def _load() -> MasterKeyring:
    if settings.MEMGOV_MASTER_KEY and settings.MEMGOV_MASTER_KEY_FILE_PATH:
        raise ImproperlyConfigured("Set MEMGOV_MASTER_KEY or MEMGOV_MASTER_KEY_FILE, not both")
    if settings.MEMGOV_MASTER_KEY:
        return parse_keyring(settings.MEMGOV_MASTER_KEY, origin="MEMGOV_MASTER_KEY")
    path_text = settings.MEMGOV_MASTER_KEY_FILE_PATH
    if not path_text:
        if not settings.DEBUG:
            raise ImproperlyConfigured(
                "No master key: set MEMGOV_MASTER_KEY (base64 of 32 bytes) or MEMGOV_MASTER_KEY_FILE. "
                'Generate one with: python -c "import base64,os;print(base64.b64encode(os.urandom(32)).decode())"'
            )
        _ensure_dev_key_file(Path(settings.MEMGOV_DEV_KEY_FILE))
        path_text = str(settings.MEMGOV_DEV_KEY_FILE)
    try:
        text = Path(path_text).read_text()
    except OSError as exc:
        raise ImproperlyConfigured(f"MEMGOV_MASTER_KEY_FILE={path_text} cannot be read: {exc}") from exc
    return parse_keyring(text, origin=f"key file {path_text}")


_lock = threading.Lock()
_keyring: MasterKeyring | None = None


def get_keyring() -> MasterKeyring:
    global _keyring
    if _keyring is None:
        with _lock:
            if _keyring is None:
                _keyring = _load()
    return _keyring


def reset_keyring() -> None:
    """Forget the loaded keyring (after the key file changed, and in tests)."""
    global _keyring
    with _lock:
        _keyring = None
