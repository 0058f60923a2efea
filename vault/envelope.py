"""AES-GCM envelope encryption of one field value.

Blob layout: ``b"\\x01" | data_key_id (8 bytes, big-endian) | nonce (12) | ciphertext+tag``.
The associated data names the model, tenant, record id and field, so a blob moved to another row or
field fails authentication instead of decrypting to the wrong place.
"""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

FORMAT_V1 = 1
_HEADER = 1 + 8
_NONCE = 12


class DecryptionError(Exception):
    """The blob can't be opened here: wrong row or field, tampered, or its key was destroyed."""

    # A template that prints an unreadable value shows nothing rather than failing the whole page; the
    # pages say "unreadable" explicitly where they show content (memories/models.py readable_content).
    silent_variable_failure = True


def associated_data(*, model: str, tenant_id: int, record_id: str, field: str) -> bytes:
    return f"memgov|v1|{model}|{tenant_id}|{record_id}|{field}".encode()


def seal(plaintext: str, *, key_id: int, key: bytes, aad: bytes) -> bytes:
    nonce = os.urandom(_NONCE)
    body = AESGCM(key).encrypt(nonce, plaintext.encode("utf-8"), aad)
    return bytes([FORMAT_V1]) + key_id.to_bytes(8, "big") + nonce + body


def key_id_of(blob: bytes) -> int:
    if len(blob) < _HEADER + _NONCE + 16 or blob[0] != FORMAT_V1:
        raise DecryptionError("not a memgov ciphertext")
    return int.from_bytes(blob[1:_HEADER], "big")


def open_sealed(blob: bytes, *, key: bytes, aad: bytes) -> str:
    return open_sealed_with(AESGCM(key), blob, aad=aad)


def open_sealed_with(cipher: AESGCM, blob: bytes, *, aad: bytes) -> str:
    """:func:`open_sealed` with a cipher made once for many blobs of one data key (making one costs a
    third of opening a short value)."""
    nonce = blob[_HEADER : _HEADER + _NONCE]
    try:
        return cipher.decrypt(nonce, blob[_HEADER + _NONCE :], aad).decode("utf-8")
    except InvalidTag:
        raise DecryptionError("ciphertext does not belong to this record and field") from None


def wrap_key(data_key: bytes, *, master: bytes, aad: bytes) -> bytes:
    nonce = os.urandom(_NONCE)
    return nonce + AESGCM(master).encrypt(nonce, data_key, aad)


def unwrap_key(wrapped: bytes, *, master: bytes, aad: bytes) -> bytes:
    try:
        return AESGCM(master).decrypt(wrapped[:_NONCE], wrapped[_NONCE:], aad)
    except InvalidTag:
        raise DecryptionError("data key does not unwrap under this master key") from None
