"""Sealing a value for a row that is inserted from its values (no model instance), exactly as the model's
``EncryptedTextField`` would: the subject's data key, and associated data naming the model, tenant, row
id and field (vault/envelope.py)."""

from __future__ import annotations

import uuid

from django.db.models import Model

from conversations.models import Session
from vault.datakeys import data_key_for
from vault.envelope import associated_data, seal
from vault.fields import sealing_label


def seal_value(
    model: type[Model], field: str, *, session: Session, record_id: uuid.UUID, text: str | None
) -> bytes | None:
    if text is None:
        return None
    key_id, key = data_key_for(tenant_id=session.tenant_id, owner=session.encryption_owner())
    aad = associated_data(
        model=sealing_label(model), tenant_id=session.tenant_id, record_id=str(record_id), field=field
    )
    return seal(text, key_id=key_id, key=key, aad=aad)
