"""Time-sortable record ids (UUIDv7): index-friendly and safe to show in URLs."""

import uuid

import uuid6


def new_id() -> uuid.UUID:
    return uuid.UUID(str(uuid6.uuid7()))
