"""An encrypted text field: plaintext on the model attribute, AES-GCM ciphertext in the column.

The model must define ``encryption_owner() -> str`` (whose data key seals the value) and have a
``tenant_id`` and a primary key set before saving (UUIDs generated in Python). The column can't be
filtered, ordered or indexed: equality goes through a keyed fingerprint column instead.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import FieldError
from django.db import models

from vault.datakeys import data_key_by_id, data_key_for
from vault.envelope import DecryptionError, associated_data, key_id_of, open_sealed, seal


class _Stored:
    __slots__ = ("blob", "dirty", "plain")

    def __init__(self, *, plain: str | None = None, blob: bytes | None = None, dirty: bool = False) -> None:
        self.plain = plain
        self.blob = blob
        self.dirty = dirty


def sealing_label(model: type[models.Model] | models.Model) -> str:
    """The model name a ciphertext's associated data carries: ``Meta.label_lower``, or the
    ``encryption_label`` a model declares to keep the name it had when its values were sealed (a model
    that moved to another app would otherwise no longer open its own values)."""
    return getattr(model, "encryption_label", None) or model._meta.label_lower


def _aad(field: EncryptedTextField, instance: models.Model) -> bytes:
    if instance.pk is None:  # an id the database assigns later would not match when the value is read
        raise FieldError(f"{instance._meta.label} has no id yet: save the row before sealing {field.attname!r}")
    return associated_data(
        model=sealing_label(instance),
        tenant_id=instance.tenant_id,  # type: ignore[attr-defined]
        record_id=str(instance.pk),
        field=field.attname,
    )


class _Descriptor:
    def __init__(self, field: EncryptedTextField) -> None:
        self.field = field

    def __get__(self, instance: models.Model | None, owner: type | None = None) -> Any:
        if instance is None:
            return self
        attname = self.field.attname
        if attname not in instance.__dict__:
            instance.refresh_from_db(fields=[attname])
        stored = instance.__dict__[attname]
        if stored is None or stored.plain is not None:
            return None if stored is None else stored.plain
        key = data_key_by_id(key_id_of(stored.blob))
        if key is None:
            raise DecryptionError("the data key of this value was destroyed (subject erased)")
        stored.plain = open_sealed(stored.blob, key=key, aad=_aad(self.field, instance))
        return stored.plain

    def __set__(self, instance: models.Model, value: Any) -> None:
        if value is None or isinstance(value, _Stored):
            instance.__dict__[self.field.attname] = value
        elif isinstance(value, (bytes, memoryview)):
            instance.__dict__[self.field.attname] = _Stored(blob=bytes(value))
        elif isinstance(value, str):
            instance.__dict__[self.field.attname] = _Stored(plain=value, dirty=True)
        else:
            raise TypeError(f"{self.field.attname} takes text, got {type(value).__name__}")


def decrypt_column(model: type[models.Model], field_name: str, *, tenant_id: int, record_id: str, blob: bytes) -> str:
    """Open an encrypted column read without the ORM (hot paths that select tuples, not instances)."""
    key = data_key_by_id(key_id_of(blob))
    if key is None:
        raise DecryptionError("the data key of this value was destroyed (subject erased)")
    aad = associated_data(model=sealing_label(model), tenant_id=tenant_id, record_id=record_id, field=field_name)
    return open_sealed(blob, key=key, aad=aad)


class EncryptedTextField(models.BinaryField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("db_index") or kwargs.get("unique"):
            raise FieldError("An encrypted field cannot be indexed or unique; use a fingerprint column")
        super().__init__(*args, **kwargs)

    def contribute_to_class(self, cls: type[models.Model], name: str, private_only: bool = False) -> None:
        super().contribute_to_class(cls, name, private_only=private_only)
        setattr(cls, self.attname, _Descriptor(self))

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> _Stored | None:
        return None if value is None else _Stored(blob=bytes(value))

    def pre_save(self, model_instance: models.Model, add: bool) -> bytes | None:
        stored: _Stored | None = model_instance.__dict__.get(self.attname)
        if stored is None:
            return None
        if stored.dirty:
            key_id, key = data_key_for(
                tenant_id=model_instance.tenant_id,  # type: ignore[attr-defined]
                owner=model_instance.encryption_owner(),  # type: ignore[attr-defined]
            )
            stored.blob = seal(stored.plain or "", key_id=key_id, key=key, aad=_aad(self, model_instance))
            stored.dirty = False
        return stored.blob

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if isinstance(value, _Stored):
            value = value.blob
        return super().get_db_prep_value(value, connection, prepared)

    def get_lookup(self, lookup_name: str) -> Any:
        if lookup_name == "isnull":
            return super().get_lookup(lookup_name)
        raise FieldError(f"Encrypted field {self.name!r} cannot be queried ({lookup_name})")

    def value_to_string(self, obj: models.Model) -> str:
        raise FieldError("Encrypted fields are not serialized")
