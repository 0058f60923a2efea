"""The data keys: one AES key per subject (tenant + subject id) and one per tenant for shared scopes."""

from __future__ import annotations

from django.db import models


class DataKey(models.Model):
    """A data key, wrapped by the master key. Deleting the row crypto-shreds what it sealed.

    ``tenant_id`` is a plain number, not a foreign key: the key store sits below tenancy and may live in
    a database of its own. The table keeps the name it had before the key store became its own app.
    """

    tenant_id = models.BigIntegerField()
    owner = models.CharField(max_length=128, blank=True)  # subject id, or "" for shared scopes
    wrapped_key = models.BinaryField()
    master_key_version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "memories_datakey"
        constraints = [models.UniqueConstraint(fields=["tenant_id", "owner"], name="datakey_unique_owner")]


class ErasureTombstone(models.Model):
    """A subject whose data was erased. Kept in the key store and in a directory outside both databases
    (vault/erasure.py), so ``manage.py apply_erasures`` can erase them again after a restore."""

    tenant_id = models.BigIntegerField()
    owner = models.CharField(max_length=128)
    erased_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant_id", "owner"], name="tombstone_unique_owner")]
