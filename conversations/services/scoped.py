"""App and user state: the shared rows that the ``app:`` and ``user:`` keys of appended deltas change."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, connection, transaction

from conversations.models import ScopedState
from conversations.state import apply_delta, dumps, loads


def _locked(*, tenant_id: int, app: str, user_id: str) -> ScopedState | None:
    rows = ScopedState.objects.filter(tenant_id=tenant_id, app=app, user_id=user_id)
    if connection.features.has_select_for_update:
        rows = rows.select_for_update()
    return rows.first()


def scoped_state_apply(*, tenant_id: int, app: str, user_id: str, delta: dict[str, Any]) -> None:
    """Apply a delta to the app state (``user_id=""``) or a subject's user state, locked against other
    sessions changing it at the same moment. Inside the caller's transaction (the append's)."""
    row = _locked(tenant_id=tenant_id, app=app, user_id=user_id)
    if row is None:
        try:
            with transaction.atomic():
                ScopedState.objects.create(tenant_id=tenant_id, app=app, user_id=user_id, values="{}")
        except IntegrityError:
            pass  # another session created it first
        row = _locked(tenant_id=tenant_id, app=app, user_id=user_id)
        assert row is not None
    row.values = dumps(apply_delta(loads(row.values) or {}, delta))
    row.version += 1
    row.save(update_fields=["values", "version", "updated_at"])
