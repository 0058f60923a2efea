"""Raw SQL helpers for the tree walks: table names and UUID parameters as each database stores them.

The tree is walked with recursive CTEs (SQLite and PostgreSQL both have them): one statement per walk
however long the branch, instead of a query per parent pointer.
"""

from __future__ import annotations

import uuid

from django.db import connection
from django.db.models import Model


def table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def uuid_param(value: uuid.UUID | str) -> object:
    """A UUID as the column holds it: native on PostgreSQL, 32 hex characters on SQLite."""
    value = value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    return value if connection.features.has_native_uuid_field else value.hex


def as_uuid(value: object) -> uuid.UUID | None:
    if value is None or isinstance(value, uuid.UUID):
        return value
    return uuid.UUID(str(value))
