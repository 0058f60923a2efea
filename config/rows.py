"""Single-statement inserts for the hot paths (memory.write, the audit writer).

Django compiles an INSERT afresh for every ``save()`` and ``bulk_create()``; on a write that stores a
memory, its version and three audit events, that compilation costs more than the database does.
:func:`insert_rows` builds each model's INSERT once and fills it through the fields' own
``pre_save`` and ``get_db_prep_save`` — so defaults, ``auto_now``, JSON, UUIDs and encrypted fields
behave exactly as with ``save()``. It sends no signals (the project uses none) and skips ``save()``
overrides, so use it only for new rows of models whose ``save()`` adds nothing to an insert.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from django.db import connections, models

# Field types whose database value is the attribute itself when it holds a plain Python value
# (what get_db_prep_save would return unchanged); any other value still goes through the field.
_PLAIN_FIELDS = (models.CharField, models.TextField, models.IntegerField, models.FloatField, models.BooleanField)
_NATIVE_TYPES = frozenset({str, int, float, bool, type(None)})
_MISSING = object()


def _is_plain(field: models.Field) -> bool:
    if isinstance(field, models.ForeignKey):
        return _is_plain(field.target_field) or isinstance(field.target_field, models.AutoField)
    kind = type(field)
    return (
        isinstance(field, _PLAIN_FIELDS)
        and kind.pre_save is models.Field.pre_save
        and kind.get_db_prep_save is models.Field.get_db_prep_save
    )


@lru_cache(maxsize=256)
def _insert_plan(
    model: type[models.Model], rows: int, vendor: str
) -> tuple[str, tuple[tuple[models.Field, str, bool], ...], bool]:
    """The INSERT for ``rows`` rows of ``model``; its fields (with attname, plain?); whether it returns ids."""
    meta = model._meta
    auto_pk = isinstance(meta.pk, models.AutoField | models.BigAutoField | models.SmallAutoField)
    fields = tuple(field for field in meta.concrete_fields if not (auto_pk and field is meta.pk))
    quote = connections["default"].ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    # Identifiers come from the model's metadata, values are always parameters.
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"  # noqa: S608
    if auto_pk:
        sql += f" RETURNING {quote(meta.pk.column)}"
    return sql, tuple((field, field.attname, _is_plain(field)) for field in fields), auto_pk


def insert_rows(instances: Sequence[models.Model], *, using: str = "default") -> None:
    """INSERT new instances of one model in one statement; sets their auto ids when the model has them.

    Call it inside the transaction of the change (it opens none of its own).
    """
    if not instances:
        return
    model = type(instances[0])
    if any(type(instance) is not model for instance in instances):
        raise TypeError("insert_rows takes instances of one model")
    connection = connections[using]
    sql, fields, returning = _insert_plan(model, len(instances), connection.vendor)
    params: list[object] = []
    for instance in instances:
        values = instance.__dict__
        for field, attname, plain in fields:
            value = values.get(attname, _MISSING) if plain else _MISSING
            if not plain or type(value) not in _NATIVE_TYPES:
                value = field.get_db_prep_save(field.pre_save(instance, True), connection)
            params.append(value)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = cursor.fetchall() if returning else ()
    pk_attname = model._meta.pk.attname
    for index, instance in enumerate(instances):
        if ids:
            setattr(instance, pk_attname, ids[index][0])
        instance._state.adding = False
        instance._state.db = using
