"""The key that signs audit export manifests, and the signature itself (Ed25519).

Why Ed25519 and not an HMAC: checking an HMAC needs the secret, and whoever can check one can forge
one. An Ed25519 signature is made with the private key, which stays with the service, and checked
with the public key alone, which a compliance officer can hand to an outside auditor without giving
them the power to sign.

The key is ``MEMGOV_AUDIT_SIGNING_KEY`` (or ``MEMGOV_AUDIT_SIGNING_KEY_FILE``): base64 of a 32-byte
Ed25519 private key, kept apart from the master key. With ``MEMGOV_DEBUG`` on and neither set, a key
file is created in ``var/`` (as for the master key); in production an export is refused instead.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import secrets
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

ALGORITHM = "ed25519"
KEY_BYTES = 32
DEV_KEY_FILENAME = "audit-signing.key"
GENERATE_HINT = 'python -c "import base64,os;print(base64.b64encode(os.urandom(32)).decode())"'


class SigningKeyMissing(ImproperlyConfigured):
    """No signing key is configured: exports are refused rather than shipped unsigned."""


def _decode(text: str, *, origin: str) -> bytes:
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (ValueError, binascii.Error):
        raise ImproperlyConfigured(f"{origin} must be base64 of {KEY_BYTES} bytes") from None
    if len(raw) != KEY_BYTES:
        raise ImproperlyConfigured(f"{origin} is {len(raw)} bytes, need {KEY_BYTES} (base64 of {KEY_BYTES} bytes)")
    return raw


def private_key_parse(text: str, *, origin: str = "MEMGOV_AUDIT_SIGNING_KEY") -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(_decode(text, origin=origin))


def public_key_parse(text: str, *, origin: str = "the public key") -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(_decode(text, origin=origin))


def public_key_text(key: Ed25519PublicKey) -> str:
    return base64.b64encode(key.public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()


def key_id(key: Ed25519PublicKey) -> str:
    """A short fingerprint of the public key: which key signed a manifest, at a glance."""
    return hashlib.sha256(key.public_bytes(Encoding.Raw, PublicFormat.Raw)).hexdigest()[:16]


def _dev_key_path() -> Path:
    return Path(settings.VAR_DIR) / DEV_KEY_FILENAME


def _ensure_dev_key_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as handle:
        handle.write(base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode() + "\n")


def signing_key_load(*, create: bool = True) -> Ed25519PrivateKey:
    """The configured signing key. ``create=False`` (verification) never invents a new development key."""
    if settings.MEMGOV_AUDIT_SIGNING_KEY:
        return private_key_parse(settings.MEMGOV_AUDIT_SIGNING_KEY)
    if not settings.DEBUG:
        raise SigningKeyMissing(
            "No audit signing key: set MEMGOV_AUDIT_SIGNING_KEY (base64 of 32 bytes, kept apart from the "
            f"master key) or MEMGOV_AUDIT_SIGNING_KEY_FILE. Generate one with: {GENERATE_HINT}"
        )
    path = _dev_key_path()
    if create:
        _ensure_dev_key_file(path)
    try:
        text = path.read_text()
    except OSError:
        raise SigningKeyMissing(
            f"No audit signing key: MEMGOV_AUDIT_SIGNING_KEY is unset and {path} does not exist"
        ) from None
    return private_key_parse(text, origin=f"key file {path}")


def manifest_canonical(manifest: dict[str, Any]) -> bytes:
    """What the signature covers: every manifest field but the signature, as sorted, compact JSON."""
    body = {name: value for name, value in manifest.items() if name != "signature"}
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def manifest_sign(manifest: dict[str, Any], *, key: Ed25519PrivateKey) -> dict[str, Any]:
    signed = {**manifest, "algorithm": ALGORITHM, "key_id": key_id(key.public_key())}
    signed["signature"] = base64.b64encode(key.sign(manifest_canonical(signed))).decode()
    return signed


def manifest_signature_ok(manifest: dict[str, Any], *, public_key: Ed25519PublicKey) -> bool:
    signature = manifest.get("signature")
    if manifest.get("algorithm") != ALGORITHM or not isinstance(signature, str):
        return False
    try:
        public_key.verify(base64.b64decode(signature, validate=True), manifest_canonical(manifest))
    except (InvalidSignature, ValueError, binascii.Error):
        return False
    return True
