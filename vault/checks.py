"""A start-up warning while data keys are still in the content database (vault/legacy.py)."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Warning, register
from django.db import DatabaseError


@register()
def legacy_data_keys(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    from vault.legacy import legacy_keys_left

    try:
        left = legacy_keys_left()
    except DatabaseError:
        return []  # no database yet (before the first migrate): nothing to move
    if not left:
        return []
    return [
        Warning(
            f"{left} data keys are still in the content database, where a backup of it would carry them",
            hint="Run: python manage.py migrate --database keys && python manage.py move_data_keys",
            id="vault.W001",
        )
    ]
