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
    return seal_bytes(plaintext.encode("utf-8"), key_id=key_id, key=key, aad=aad)


def seal_bytes(plaintext: bytes, *, key_id: int, key: bytes, aad: bytes) -> bytes:
    """:func:`seal` of bytes (a value that is not text, such as a packed index)."""
    nonce = os.urandom(_NONCE)
    body = AESGCM(key).encrypt(nonce, plaintext, aad)
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
    return open_sealed_bytes_with(cipher, blob, aad=aad).decode("utf-8")


def open_sealed_bytes_with(cipher: AESGCM, blob: bytes, *, aad: bytes) -> bytes:
    nonce = blob[_HEADER : _HEADER + _NONCE]
    try:
        return cipher.decrypt(nonce, blob[_HEADER + _NONCE :], aad)
    except InvalidTag:
        raise DecryptionError("ciphertext does not belong to this record and field") from None


def nonce_of(blob: bytes) -> bytes:
    """A sealed value's nonce: new at every seal, so it tells one sealing of a value from another."""
    return bytes(blob[_HEADER : _HEADER + _NONCE])


# Where the nonce sits in a blob, 1-based, for SQL's substr(): a row's seal stamp without its content.
NONCE_SQL_START, NONCE_SIZE = _HEADER + 1, _NONCE


def wrap_key(data_key: bytes, *, master: bytes, aad: bytes) -> bytes:
    nonce = os.urandom(_NONCE)
    return nonce + AESGCM(master).encrypt(nonce, data_key, aad)


def unwrap_key(wrapped: bytes, *, master: bytes, aad: bytes) -> bytes:
    try:
        return AESGCM(master).decrypt(wrapped[:_NONCE], wrapped[_NONCE:], aad)
    except InvalidTag:
        raise DecryptionError("data key does not unwrap under this master key") from None
