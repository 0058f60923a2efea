"""config.rows.insert_rows: the hot paths' INSERT behaves as save() does."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import AuditEvent
from config.rows import insert_rows
from memories.models import Memory


def test_one_statement_inserts_all_rows_and_sets_their_ids(world):
    rows = [
        AuditEvent(tenant_id=world.demo.pk, seq=1000 + n, event="memory_read", created_at=timezone.now(), actor="t")
        for n in range(3)
    ]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        insert_rows(rows)
    assert sum(q["sql"].startswith("INSERT") for q in queries) == 1
    assert all(row.pk for row in rows) and len({row.pk for row in rows}) == 3
    stored = AuditEvent.objects.filter(pk__in=[row.pk for row in rows]).order_by("seq")
    assert [event.seq for event in stored] == [1000, 1001, 1002]


def test_fields_prepare_their_values_as_on_save(world):
    memory = Memory(
        tenant_id=world.demo.pk,
        level="user",
        user_id="alice",
        type="user_preference",
        source_type="explicit_user_request",
        fingerprint="f",
        created_by="t",
        entity_types=["EMAIL"],
    )
    memory.content = "Alice likes tables"
    with transaction.atomic():
        insert_rows([memory])
    assert memory.created_at is not None and memory.updated_at is not None  # auto_now(_add) filled
    stored = Memory.objects.get(pk=memory.pk)
    assert stored.content == "Alice likes tables" and stored.entity_types == ["EMAIL"]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT content FROM memories_memory WHERE id = %s",
            [Memory._meta.pk.get_db_prep_value(memory.pk, connection)],
        )
        (raw,) = cursor.fetchone()
    assert b"Alice" not in bytes(raw)  # sealed by the encrypted field, not stored as text


def test_it_refuses_a_mix_of_models(world):
    with pytest.raises(TypeError):
        insert_rows([AuditEvent(), Memory()])


def test_every_column_matches_what_save_stores(world):
    # The plain-value shortcut must store exactly what the ORM's save() stores, field by field.
    def build(user_id: str) -> Memory:
        memory = Memory(
            tenant_id=world.demo.pk,
            level="user",
            user_id=user_id,
            type="user_preference",
            source_type="explicit_user_request",
            fingerprint="f" * 64,
            created_by="t",
            confidence=0.75,
            policy_version=3,
            entity_types=["EMAIL"],
        )
        memory.content = "same"
        return memory

    saved, inserted = build("alice"), build("bob")
    saved.save(force_insert=True)
    with transaction.atomic():
        insert_rows([inserted])
    skip = {"id", "user_id", "content", "created_at", "updated_at"}
    columns = [f.attname for f in Memory._meta.concrete_fields if f.attname not in skip]
    rows = Memory.objects.filter(pk__in=[saved.pk, inserted.pk]).values(*columns)
    assert len(rows) == 2 and rows[0] == rows[1]
