"""The key store's own database: the vault's models live in ``KEYS_DB``, everything else in ``default``.

So a backup or copy of the content database holds no usable data key. The data key table was first
created in the content database (by memories' first migration); the vault's first two migrations still
describe that table there, and ``manage.py move_data_keys`` moves an installation's keys out of it. The
key store's own tables are created by migrations whose operations carry the ``key_store`` hint.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model

KEYS_DB = "keys"
APP = "vault"


class KeyStoreRouter:
    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        return KEYS_DB if model._meta.app_label == APP else None

    def db_for_write(self, model: type[Model], **hints: Any) -> str | None:
        return KEYS_DB if model._meta.app_label == APP else None

    def allow_relation(self, obj1: Model, obj2: Model, **hints: Any) -> bool | None:
        return None

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool:
        if hints.get("key_store"):
            return db == KEYS_DB
        # Nothing else lives in the key store, not even the vault's legacy operations.
        return db != KEYS_DB
