"""A transactional test leaves nothing in the key store's database for the next one: Django's flush skips
the key store's tables (the router lets none be migrated there without the migrations' hint), so
tests/conftest.py empties them itself. The two tests run in this order (both transactional)."""

from __future__ import annotations

import pytest

from vault.datakeys import data_key_for
from vault.erasure import tombstone_record, tombstones
from vault.models import DataKey

_LEFT_BEHIND: list[int] = []


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_leaves_a_data_key_and_a_tombstone(world):
    key_id, _ = data_key_for(tenant_id=world.demo.pk, owner="alice")
    tombstone_record(tenant_id=world.demo.pk, owner="alice")
    assert DataKey.objects.filter(pk=key_id).exists() and tombstones()
    _LEFT_BEHIND.append(key_id)


@pytest.mark.django_db(transaction=True)
def test_the_next_one_finds_the_key_store_empty(world):
    assert not DataKey.objects.filter(pk__in=_LEFT_BEHIND).exists()
    assert tombstones() == []
