"""dbkit.rows.insert_rows: the hot paths' INSERT behaves as save() does."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import AuditEvent
from dbkit.rows import insert_rows, insert_values
from governance.vocabulary import Level
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
    assert (stored.created_at, stored.updated_at) == (memory.created_at, memory.updated_at)
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


def test_shortcut_values_equal_what_the_fields_prepare(world):
    # Each converter must give exactly the field's own database value, on this backend.
    from uuid import uuid4

    from dbkit.rows import _converter

    aware = timezone.now()
    cases = [
        (AuditEvent._meta.get_field("memory_id"), uuid4()),
        (AuditEvent._meta.get_field("memory_id"), None),
        (AuditEvent._meta.get_field("created_at"), aware),
        (AuditEvent._meta.get_field("details"), {"version": 2, "change": "edited", "flag": None}),
        (AuditEvent._meta.get_field("entity_types"), ["EMAIL", "PHONE_NUMBER"]),
        (AuditEvent._meta.get_field("entity_types"), []),
        (Memory._meta.get_field("expires_at"), None),
        (Memory._meta.get_field("conflict_with"), uuid4()),
        (AuditEvent._meta.get_field("tenant"), world.demo.pk),
        (AuditEvent._meta.get_field("actor"), "agent:x"),
        (AuditEvent._meta.get_field("scope"), Level.USER),  # a StrEnum, stored as its value
        (Memory._meta.get_field("confidence"), 0.5),
        (AuditEvent._meta.get_field("requires_confirmation"), True),
        (AuditEvent._meta.get_field("requires_confirmation"), None),
    ]
    for field, value in cases:
        convert = _converter(field)
        assert convert is not None, field.name
        expected = field.get_db_prep_save(value, connection)
        got = convert(value, connection)
        assert got == expected or str(got) == str(expected), field.name  # Jsonb has no ==
        if isinstance(expected, bool) and connection.vendor == "sqlite":
            assert type(got) is int, field.name  # what SQLite stores for a bool, without the adapter lookup
        elif isinstance(expected, str):
            assert type(got) is str, field.name  # a StrEnum goes to the driver as plain text
        else:
            assert type(got) is type(expected) and str(got) == str(expected), field.name


def test_values_the_shortcuts_do_not_know_go_through_the_field():
    from datetime import datetime

    from dbkit.rows import _MISSING, _converter

    created_at = AuditEvent._meta.get_field("created_at")
    assert _converter(created_at)(datetime(2026, 1, 1, 12, 0), connection) is _MISSING  # naive
    assert _converter(AuditEvent._meta.get_field("memory_id"))("not-a-uuid", connection) is _MISSING
    assert _converter(AuditEvent._meta.get_field("seq"))("7", connection) is _MISSING  # the field casts it
    assert _converter(Memory._meta.get_field("content")) is None  # encrypted: always sealed by the field


def test_an_audit_row_stores_the_same_columns_as_save(world):
    from uuid import uuid4

    memory_id, now = uuid4(), timezone.now()

    def build(seq: int) -> AuditEvent:
        return AuditEvent(
            tenant_id=world.demo.pk,
            seq=seq,
            event="memory_updated",
            created_at=now,
            actor="t",
            memory_id=memory_id,
            entity_types=["EMAIL"],
            details={"version": 2},
            prev_hash="0" * 64,
            hash="1" * 64,
        )

    saved, inserted = build(5000), build(5001)
    saved.save(force_insert=True)
    with transaction.atomic():
        insert_rows([inserted])
    columns = ["created_at", "memory_id", "entity_types", "details"]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(columns)} FROM audit_auditevent WHERE id IN (%s, %s) ORDER BY seq",
            [saved.pk, inserted.pk],
        )
        first, second = cursor.fetchall()
    assert first == second


def test_selected_instances_equal_what_the_orm_loads(world, make_memory):
    from dbkit.rows import select_instances
    from governance.models import AgentClient

    memory = make_memory(world.demo, "Prefers tables", user_id="alice")
    Memory.objects.filter(pk=memory.pk).update(entity_types=["EMAIL"], expires_at=timezone.now())
    (selected,) = select_instances(Memory, "id = %s", [Memory._meta.pk.get_db_prep_value(memory.pk, connection)])
    loaded = Memory.objects.get(pk=memory.pk)
    for field in Memory._meta.concrete_fields:
        if field.name != "content":
            assert getattr(selected, field.attname) == getattr(loaded, field.attname), field.name
    assert selected.content == "Prefers tables" and not selected._state.adding

    agent = AgentClient.objects.create(tenant=world.demo, name="rows-test", key_prefix="p1", key_hash="h" * 64)
    AgentClient.objects.filter(pk=agent.pk).update(allowed_types=["user_preference"], revoked_at=timezone.now())
    (selected_agent,) = select_instances(AgentClient, "key_prefix = %s", ["p1"])
    loaded_agent = AgentClient.objects.get(pk=agent.pk)
    assert {f.attname: getattr(selected_agent, f.attname) for f in AgentClient._meta.concrete_fields} == {
        f.attname: getattr(loaded_agent, f.attname) for f in AgentClient._meta.concrete_fields
    }
    assert select_instances(AgentClient, "key_prefix = %s", ["nope"]) == []


def test_values_insert_the_same_columns_as_save(world):
    """``insert_values`` (dicts, no instances) stores what ``save()`` stores, every column, and returns the ids."""
    from uuid import uuid4

    now = timezone.now()
    values = {
        "tenant_id": world.demo.pk,
        "event": "memory_updated",
        "created_at": now,
        "actor": "t",
        "entity_types": ["EMAIL"],
        "details": {"version": 2, "memory_ids": ["a", "b"]},
        "requires_confirmation": None,
        "prev_hash": "0" * 64,
        "hash": "1" * 64,
    }
    memory_id = uuid4()
    saved = AuditEvent(**values, seq=6000, memory_id=memory_id)
    saved.save(force_insert=True)
    rows = [values | {"seq": 6001, "memory_id": str(memory_id)}, values | {"seq": 6002, "memory_id": memory_id}]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        ids = insert_values(AuditEvent, rows)
    assert len(queries) == 1 and len(ids) == 2 and saved.pk < ids[0] < ids[1]
    columns = [field.column for field in AuditEvent._meta.concrete_fields if field.column not in ("id", "seq")]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(columns)} FROM audit_auditevent WHERE id IN (%s, %s, %s) ORDER BY seq",
            [saved.pk, *ids],
        )
        first, second, third = cursor.fetchall()
    assert first == second == third  # a memory id as text or as a UUID is stored the same
    assert AuditEvent.objects.get(pk=ids[0]).source_message_id == ""  # a missing value is the field's default


def test_values_refuse_a_model_that_stamps_its_rows(world):
    with pytest.raises(TypeError, match="can't stamp"):
        insert_values(Memory, [{"tenant_id": world.demo.pk}])
