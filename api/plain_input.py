"""Request validation without DRF's per-request cost, and with DRF's answers.

A DRF serializer instantiated for every request deep-copies its declared fields and runs each through a
chain of generic calls: about 0.3 ms for memory.write's candidate, as much as some of the work the request
carries. ``validated(Serializer, data)`` plans each serializer class once, from its bound fields, into a
plain function that accepts only what is plainly valid and returns exactly what DRF's ``validated_data``
would be. Anything it is not sure of — a wrong type, a value a validator refuses, a field kind or hook it
does not know — makes it step aside, and the serializer itself validates the request: every error (and its
message) is DRF's own, and the serializers stay the documented shapes drf-spectacular reads.

A request body is a ``dict``; query parameters are a ``QueryDict``, whose values the plan takes through each
field's own ``get_value`` (DRF's rules for HTML input: a missing boolean is false, a blank optional value is
left out). A ``validate_<field>`` hook is DRF's business unless it is marked ``@reads_only_its_value``: such a
hook is a check of the field's value alone, and the plan calls it as DRF does.
``tests/api/test_plain_input.py`` checks, over generated inputs, that the plan never accepts what DRF refuses
and never returns other data than DRF's.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Callable
from functools import cache
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import (
    MaxLengthValidator,
    MaxValueValidator,
    MinLengthValidator,
    MinValueValidator,
    ProhibitNullCharactersValidator,
)
from django.http import QueryDict
from rest_framework import fields, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.fields import SkipField, empty
from rest_framework.utils import json as drf_json
from rest_framework.validators import ProhibitSurrogateCharactersValidator

_SURROGATE = re.compile("[\ud800-\udfff]")


class _StepAside(Exception):
    """The plan is not sure: DRF's serializer validates this input."""


Check = Callable[[Any], None]
Plan = Callable[[Any], Any]
Hook = Callable[[Any], Any]

_VALUE_ONLY = "reads_only_its_value"


def reads_only_its_value(hook: Hook) -> Hook:
    """Marks a serializer's ``validate_<field>`` hook as a check of that field's value alone — not the request's
    other fields, the context or the instance — so the plan may call it, as DRF does, after the field."""
    setattr(hook, _VALUE_ONLY, True)
    return hook


def _check_for(validator: Any) -> Check:
    """A validator as a plain check; the common ones without Django's per-call machinery."""
    if isinstance(validator, ProhibitNullCharactersValidator):
        return lambda value: _refuse_if("\x00" in value)
    if isinstance(validator, ProhibitSurrogateCharactersValidator):
        return lambda value: _refuse_if(_SURROGATE.search(value) is not None)
    limit = getattr(validator, "limit_value", None)
    if limit is not None and not callable(limit):
        if type(validator) is MaxLengthValidator:
            return lambda value: _refuse_if(len(value) > limit)
        if type(validator) is MinLengthValidator:
            return lambda value: _refuse_if(len(value) < limit)
        if type(validator) is MaxValueValidator:
            return lambda value: _refuse_if(value > limit)
        if type(validator) is MinValueValidator:
            return lambda value: _refuse_if(value < limit)
    if getattr(validator, "requires_context", False):
        raise TypeError("a validator that needs its field")

    def check(value: Any) -> None:
        try:
            validator(value)
        except (ValidationError, DjangoValidationError):
            raise _StepAside from None

    return check


def _refuse_if(condition: bool) -> None:
    if condition:
        raise _StepAside


def _convert_for(field: fields.Field) -> Plan:
    """The plain conversion of one present, non-null value, for the field kinds whose DRF logic it mirrors."""
    kind = type(field)
    if kind in (fields.CharField, fields.RegexField):  # a RegexField is a CharField with one more validator
        trim = field.trim_whitespace

        def char(value: Any) -> Any:
            if type(value) is not str:
                raise _StepAside
            return value.strip() if trim else value

        return char
    if kind is fields.ChoiceField:
        choices = field.choice_strings_to_values

        def choice(value: Any) -> Any:
            if type(value) is not str or value not in choices:
                raise _StepAside
            return choices[value]

        return choice
    if kind is fields.IntegerField:
        return _integer
    if kind is fields.FloatField:

        def number(value: Any) -> float:
            if type(value) not in (int, float) or not math.isfinite(value):
                raise _StepAside
            return float(value)

        return number
    if kind is fields.BooleanField:
        true, false = field.TRUE_VALUES, field.FALSE_VALUES

        def boolean(value: Any) -> bool:
            if type(value) is bool:
                return value
            if type(value) is str:  # a query parameter: DRF's words for true and false, in any case
                lowered = value.lower()
                if lowered in true:
                    return True
                if lowered in false:
                    return False
            raise _StepAside

        return boolean
    if kind is fields.UUIDField:
        return _uuid
    if kind is fields.JSONField:
        return _json_document(field)
    if kind is fields.DateTimeField:
        return lambda value: _step_aside()  # present: DRF parses it (formats, time zones)
    if kind is fields.ListField:
        child, allow_empty = _field_plan(field.child), field.allow_empty

        def listed(value: Any) -> list[Any]:
            if type(value) is not list or not (value or allow_empty):
                raise _StepAside
            return [child(item) for item in value]

        return listed
    if kind is serializers.ListSerializer:  # a serializer with many=True
        return _list_plan(field)
    if isinstance(field, serializers.Serializer):
        return _mapping_plan(field)
    raise TypeError(f"no plain plan for {kind.__name__}")


def _step_aside() -> Any:
    raise _StepAside


def _integer(value: Any) -> int:
    if type(value) is int and -(2**63) <= value < 2**63:
        return value
    # A query parameter: plain digits only (DRF also takes signs, spaces, "1.0", underscores, other scripts).
    if type(value) is str and len(value) <= 18 and value.isascii() and value.isdigit():
        return int(value)
    raise _StepAside


def _uuid(value: Any) -> uuid.UUID:
    if type(value) is not str:
        raise _StepAside
    try:
        return uuid.UUID(hex=value)  # DRF's own conversion
    except ValueError:
        raise _StepAside from None


def _json_document(field: fields.JSONField) -> Plan:
    """DRF's JSONField for a JSON body: any value DRF's strict ``json.dumps`` takes (no NaN or infinity), returned
    as it came."""
    if field.binary:
        raise TypeError("a binary JSONField")
    encoder = field.encoder

    def document(value: Any) -> Any:
        if type(value) not in (dict, list, str, int, float, bool):  # a str subclass may be a form's JSON text
            raise _StepAside
        try:
            drf_json.dumps(value, cls=encoder)
        except (TypeError, ValueError):
            raise _StepAside from None
        return value

    return document


def _list_plan(many: serializers.ListSerializer) -> Plan:
    """DRF's ``ListSerializer.to_internal_value`` (without an instance to update): each item by the child's plan."""
    if many.instance is not None or many.validators:
        raise TypeError("a list with validators of its own")
    child = _field_plan(many.child)
    allow_empty, low, high = many.allow_empty, many.min_length, many.max_length

    def listed(value: Any) -> list[Any]:
        if type(value) is not list or not (value or allow_empty):
            raise _StepAside
        if (high is not None and len(value) > high) or (low is not None and len(value) < low):
            raise _StepAside
        return [child(item) for item in value]

    return listed


def _field_plan(field: fields.Field) -> Plan:
    """DRF's ``Field.run_validation`` for one field: empty and null values, the conversion, the validators."""
    if field.source_attrs != [field.field_name] and field.field_name:
        raise TypeError("a field with another source")
    convert, checks = _convert_for(field), [_check_for(v) for v in field.validators]
    is_char, trim = type(field) in (fields.CharField, fields.RegexField), getattr(field, "trim_whitespace", False)
    blank_choice = type(field) is fields.ChoiceField and field.allow_blank

    def plan(value: Any) -> Any:
        if value is empty:
            if field.required:
                raise _StepAside
            return field.get_default()  # may raise SkipField: the key is left out, as DRF leaves it
        if value is None:
            if not field.allow_null:
                raise _StepAside
            return None
        if is_char and type(value) is str and (value == "" or (trim and value.strip() == "")):
            if not field.allow_blank:
                raise _StepAside
            return ""  # DRF's CharField answers a blank before its validators run
        converted = "" if blank_choice and value == "" else convert(value)
        for check in checks:
            check(converted)
        return converted

    return plan


def _mapping_plan(serializer: serializers.Serializer) -> Plan:
    """DRF's ``Serializer.to_internal_value`` (and its empty/null handling) when nothing overrides it."""
    kind = type(serializer)
    overridden = (
        kind.validate is not serializers.Serializer.validate
        or kind.to_internal_value is not serializers.Serializer.to_internal_value
        or kind.run_validation is not serializers.Serializer.run_validation
        or serializer.validators
    )
    if overridden:
        raise TypeError(f"{kind.__name__} validates with hooks of its own")
    plans = [
        (
            field.field_name,
            field,
            _hooked(_field_plan(field), getattr(serializer, f"validate_{field.field_name}", None)),
        )
        for field in serializer.fields.values()
        if not field.read_only
    ]

    def plan(value: Any) -> dict[str, Any]:
        if type(value) is dict:
            primitives = [value.get(name, empty) for name, _field, _plan in plans]
        elif type(value) is QueryDict:  # query parameters: each field reads its own, as DRF has it read them
            primitives = [field.get_value(value) for _name, field, _plan in plans]
        else:
            raise _StepAside
        validated: dict[str, Any] = {}
        for (name, _field, field_plan), primitive in zip(plans, primitives, strict=True):
            try:  # noqa: SIM105 - a with-block per field would cost more than the field
                validated[name] = field_plan(primitive)
            except SkipField:
                pass
        return validated

    return plan


def _hooked(field_plan: Plan, hook: Hook | None) -> Plan:
    """The field's plan, then its ``validate_<field>`` hook when it has one the plan may call."""
    if hook is None:
        return field_plan
    if not getattr(hook, _VALUE_ONLY, False):
        raise TypeError(f"{hook.__qualname__} may read more than its value")

    def plan(value: Any) -> Any:
        try:
            return hook(field_plan(value))
        except (ValidationError, DjangoValidationError):
            raise _StepAside from None

    return plan


@cache
def _plan_of(serializer_class: type[serializers.Serializer]) -> Plan | None:
    try:
        return _mapping_plan(serializer_class())
    except TypeError:
        return None  # a shape the plan does not mirror: DRF validates every request of it


def validated(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """``serializer_class(data=data)``'s ``validated_data``; raises DRF's ``ValidationError`` when it is invalid."""
    plan = _plan_of(serializer_class)
    if plan is not None:
        try:
            return plan(data)
        except Exception:  # noqa: S110 - _StepAside, or anything unforeseen: the serializer decides
            pass
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
