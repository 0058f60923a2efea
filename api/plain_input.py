"""Request validation without DRF's per-request cost, and with DRF's answers.

A DRF serializer instantiated for every request deep-copies its declared fields and runs each through a
chain of generic calls: about 0.3 ms for memory.write's candidate, as much as some of the work the request
carries. ``validated(Serializer, data)`` plans each serializer class once, from its bound fields, into a
plain function that accepts only what is plainly valid and returns exactly what DRF's ``validated_data``
would be. Anything it is not sure of — a wrong type, a value a validator refuses, a field kind or hook it
does not know — makes it step aside, and the serializer itself validates the request: every error (and its
message) is DRF's own, and the serializers stay the documented shapes drf-spectacular reads.
``tests/api/test_plain_input.py`` checks, over generated inputs, that the plan never accepts what DRF refuses
and never returns other data than DRF's.
"""

from __future__ import annotations

import math
import re
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
from rest_framework import fields, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.fields import SkipField, empty
from rest_framework.validators import ProhibitSurrogateCharactersValidator

_SURROGATE = re.compile("[\ud800-\udfff]")


class _StepAside(Exception):
    """The plan is not sure: DRF's serializer validates this input."""


Check = Callable[[Any], None]
Plan = Callable[[Any], Any]


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
    if kind is fields.CharField:
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
        return lambda value: value if type(value) is int and -(2**63) <= value < 2**63 else _step_aside()
    if kind is fields.FloatField:

        def number(value: Any) -> float:
            if type(value) not in (int, float) or not math.isfinite(value):
                raise _StepAside
            return float(value)

        return number
    if kind is fields.BooleanField:
        return lambda value: value if type(value) is bool else _step_aside()
    if kind is fields.DateTimeField:
        return lambda value: _step_aside()  # present: DRF parses it (formats, time zones)
    if kind is fields.ListField:
        child, allow_empty = _field_plan(field.child), field.allow_empty

        def listed(value: Any) -> list[Any]:
            if type(value) is not list or not (value or allow_empty):
                raise _StepAside
            return [child(item) for item in value]

        return listed
    if isinstance(field, serializers.Serializer):
        return _mapping_plan(field)
    raise TypeError(f"no plain plan for {kind.__name__}")


def _step_aside() -> Any:
    raise _StepAside


def _field_plan(field: fields.Field) -> Plan:
    """DRF's ``Field.run_validation`` for one field: empty and null values, the conversion, the validators."""
    if field.source_attrs != [field.field_name] and field.field_name:
        raise TypeError("a field with another source")
    convert, checks = _convert_for(field), [_check_for(v) for v in field.validators]
    is_char, trim = type(field) is fields.CharField, getattr(field, "trim_whitespace", False)
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
    writable = [field for field in serializer.fields.values() if not field.read_only]
    if overridden or any(hasattr(serializer, f"validate_{field.field_name}") for field in writable):
        raise TypeError(f"{kind.__name__} validates with hooks of its own")
    plans = [(field.field_name, _field_plan(field)) for field in writable]

    def plan(value: Any) -> dict[str, Any]:
        if type(value) is not dict:
            raise _StepAside
        validated: dict[str, Any] = {}
        for name, field_plan in plans:
            try:  # noqa: SIM105 - a with-block per field would cost more than the field
                validated[name] = field_plan(value.get(name, empty))
            except SkipField:
                pass
        return validated

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
