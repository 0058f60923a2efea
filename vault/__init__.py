"""Encryption that every app's data sits on: the master keyring, per-subject data keys, the AES-GCM
envelope and the encrypted model field.

Imports Django, ``config`` and ``dbkit`` only. A module above it seals and opens values; nothing here
knows what a memory, a session or a tenant is beyond its numeric id.
"""

from vault.envelope import DecryptionError

__all__ = ["DecryptionError"]
