"""Single-statement inserts for the hot paths (memory.write, the audit writer).

Django compiles an INSERT afresh for every ``save()`` and ``bulk_create()``; on a write that stores a
memory, its version and three audit events, that compilation costs more than the database does.
:func:`insert_rows` builds each model's INSERT once and fills it through the fields' own
``pre_save`` and ``get_db_prep_save`` — so defaults, ``auto_now``, JSON, UUIDs and encrypted fields
behave exactly as with ``save()``. It sends no signals (the project uses none) and skips ``save()``
overrides, so use it only for new rows of models whose ``save()`` adds nothing to an insert.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import lru_cache
from uuid import UUID

from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

_JSON_TYPES = frozenset({dict, list, str, int, float, bool})
_MISSING = object()

# A converter turns an instance's attribute into the database value, or returns _MISSING when the
# value isn't one it knows; the field's own pre_save/get_db_prep_save then handles it.
Converter = Callable[[object, BaseDatabaseWrapper], object]


def _standard(field: models.Field, base: type[models.Field]) -> bool:
    """The field prepares values exactly as ``base`` does (no subclass overrides on the way)."""
    kind = type(field)
    return (
        isinstance(field, base)
        and kind.pre_save is base.pre_save
        and kind.get_db_prep_save is base.get_db_prep_save
        and kind.get_db_prep_value is base.get_db_prep_value
        and kind.get_prep_value is base.get_prep_value
        and kind.to_python is base.to_python
    )


def _exactly(*kinds: type) -> Converter:
    """Values of exactly these types (or None), which the field would store unchanged."""
    accepted = frozenset({*kinds, type(None)})

    def convert(value: object, connection: BaseDatabaseWrapper) -> object:
        return value if type(value) in accepted else _MISSING

    return convert


_INTEGER = _exactly(int)
_FLOAT = _exactly(float)


def _boolean(value: object, connection: BaseDatabaseWrapper) -> object:
    if value is None:
        return None
    if type(value) is not bool:
        return _MISSING
    # SQLite stores a bool as 0/1; sent as an int, the driver skips its adapter lookup (see ``_text``).
    return int(value) if connection.vendor == "sqlite" else value


_BOOLEAN: Converter = _boolean


def _text(value: object, connection: BaseDatabaseWrapper) -> object:
    if type(value) is str or value is None:
        return value
    # A str subclass (the vocabulary's StrEnums) is stored as its text. Sent as the subclass, the
    # driver would first look for an adapter, raising and catching AttributeErrors on every value.
    return str.__str__(value) if isinstance(value, str) else _MISSING


def _uuid(value: object, connection: BaseDatabaseWrapper) -> object:
    if value is None:
        return None
    if type(value) is not UUID:
        return _MISSING
    return value if connection.features.has_native_uuid_field else value.hex


def _aware_datetime(value: object, connection: BaseDatabaseWrapper) -> object:
    if value is None:
        return None
    if type(value) is not datetime or value.utcoffset() is None:
        return _MISSING  # naive datetimes take the field's path (and its warning)
    return connection.ops.adapt_datetimefield_value(value)


def _json(field: models.JSONField) -> Converter:
    def convert(value: object, connection: BaseDatabaseWrapper) -> object:
        if value is None:
            return None
        if type(value) not in _JSON_TYPES:
            return _MISSING
        return connection.ops.adapt_json_value(value, field.encoder)

    return convert


# Field classes whose database value is the attribute itself when it has one of these types.
_SIMPLE: tuple[tuple[type[models.Field], Converter], ...] = (
    (models.CharField, _text),
    (models.TextField, _text),
    (models.BooleanField, _BOOLEAN),
    (models.FloatField, _FLOAT),
    (models.IntegerField, _INTEGER),
)


def _converter(field: models.Field) -> Converter | None:
    """A shortcut for the field's common values, or None when every value must go through the field."""
    if isinstance(field, models.ForeignKey):
        target = field.target_field
        if isinstance(target, models.AutoField):
            return _INTEGER
        return _uuid if _standard(target, models.UUIDField) else None
    for base, convert in _SIMPLE:
        if isinstance(field, base):
            return convert if _standard(field, base) else None
    if _standard(field, models.UUIDField):
        return _uuid
    if _standard(field, models.DateTimeField):
        return _aware_datetime  # auto_now(_add) fields: of the value their pre_save sets
    if _standard(field, models.JSONField):
        return _json(field)
    return None


def _stamped(field: models.Field) -> bool:
    """Whether the field sets its own value on insert (auto_now / auto_now_add)."""
    return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))


@lru_cache(maxsize=256)
def _insert_plan(
    model: type[models.Model], rows: int, vendor: str
) -> tuple[str, tuple[tuple[models.Field, str, Converter | None, bool], ...], bool]:
    """The INSERT for ``rows`` rows of ``model``: its fields (with attname, converter, stamped by pre_save?),
    and whether it returns ids."""
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
    plan = tuple((field, field.attname, _converter(field), _stamped(field)) for field in fields)
    return sql, plan, auto_pk


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
        for field, attname, convert, stamped in fields:
            value = values.get(attname, _MISSING) if not stamped else field.pre_save(instance, True)
            value = _MISSING if convert is None else convert(value, connection)
            if value is _MISSING:
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


def insert_values(
    model: type[models.Model], rows: Sequence[dict[str, object]], *, using: str = "default"
) -> list[object]:
    """INSERT rows of ``model`` given as ``{attname: value}`` dicts, in one statement; returns their auto ids.

    :func:`insert_rows` without the model instances, for an append-only log whose rows are written and
    not used afterwards (building an instance costs more than its share of the INSERT). Values go
    through the same shortcuts, else the field's ``get_db_prep_save``; a missing attribute is the
    field's default. Models with ``auto_now`` fields are refused: they need an instance.
    """
    if not rows:
        return []
    connection = connections[using]
    sql, fields, returning = _insert_plan(model, len(rows), connection.vendor)
    params: list[object] = []
    for row in rows:
        for field, attname, convert, stamped in fields:
            if stamped:
                raise TypeError(f"insert_values can't stamp {model.__name__}.{attname}; use insert_rows")
            value = row[attname] if attname in row else field.get_default()
            prepared = _MISSING if convert is None else convert(value, connection)
            params.append(field.get_db_prep_save(value, connection) if prepared is _MISSING else prepared)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [found[0] for found in cursor.fetchall()] if returning else []


@lru_cache(maxsize=64)
def _select_plan(
    model: type[models.Model], vendor: str
) -> tuple[str, tuple[tuple[tuple[Callable[..., object], ...], models.expressions.Col], ...]]:
    """``SELECT <every column> FROM <table>`` for ``model``, and each column's from-database converters."""
    connection = connections["default"]
    meta = model._meta
    quote = connection.ops.quote_name
    columns = []
    for field in meta.concrete_fields:
        column = field.get_col(meta.db_table)
        converters = (*connection.ops.get_db_converters(column), *field.get_db_converters(connection))
        columns.append((tuple(converters), column))
    select = ", ".join(quote(field.column) for field in meta.concrete_fields)
    return f"SELECT {select} FROM {quote(meta.db_table)}", tuple(columns)  # noqa: S608


def select_instances_with(
    model: type[models.Model],
    where: str,
    params: Sequence[object],
    *,
    extra: Sequence[str],
    using: str = "default",
) -> list[tuple[models.Model, tuple[object, ...]]]:
    """:func:`select_instances`, each instance with the values of ``extra`` — more select-list expressions
    (scalar subqueries, say) fetched by the same statement; their ``%s`` parameters come first in ``params``."""
    connection = connections[using]
    select, columns = _select_plan(model, connection.vendor)
    head, _, table = select.partition(" FROM ")
    with connection.cursor() as cursor:
        cursor.execute(f"{head}, {', '.join(extra)} FROM {table} WHERE {where}", params)
        rows = cursor.fetchall()
    found = []
    for row in rows:
        values = []
        for value, (converters, column) in zip(row[: len(columns)], columns, strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            values.append(value)
        found.append((model.from_db(using, None, values), tuple(row[len(columns) :])))
    return found


def select_instances(
    model: type[models.Model], where: str, params: Sequence[object], *, using: str = "default"
) -> list[models.Model]:
    """Instances of ``model`` for ``SELECT … WHERE <where>`` (``where`` holds placeholders, never
    values), converted as the ORM converts them: for hot lookups whose query building cost more
    than the query."""
    connection = connections[using]
    select, columns = _select_plan(model, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(f"{select} WHERE {where}", params)
        rows = cursor.fetchall()
    found = []
    for row in rows:
        values = []
        for value, (converters, column) in zip(row, columns, strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            values.append(value)
        found.append(model.from_db(using, None, values))
    return found
