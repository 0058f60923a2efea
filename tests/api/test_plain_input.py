"""api/plain_input.py: the plain plan of a serializer never accepts what DRF refuses and never returns other data
than DRF's ``validated_data``; whatever it is unsure of, the serializer decides (with DRF's own errors)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.validators import RegexValidator
from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework import fields, serializers
from rest_framework.exceptions import ValidationError

from api.memories.context_views import ContextRequestSerializer
from api.memories.used_views import UsedRequestSerializer
from api.memories.write_serializers import WriteRequestSerializer
from api.plain_input import _plan_of, reads_only_its_value, validated
from api.sessions.event_serializers import BranchQuery, ContextIn, EventBatchIn, EventIn, StateQuery
from api.sessions.serializers import ForkIn, SessionCreateIn, SessionDeleteQuery, SessionListQuery

QUERIES = (BranchQuery, StateQuery, SessionListQuery, SessionDeleteQuery)  # read from query parameters
PLANNED = (
    WriteRequestSerializer,
    ContextRequestSerializer,
    UsedRequestSerializer,
    EventIn,
    EventBatchIn,
    ForkIn,
    ContextIn,
    SessionCreateIn,
    *QUERIES,
)

ABSENT = object()
ODD_TEXT = st.sampled_from(["", " ", "\t\n", " padded ", "a\x00b", "\ud800", "真的", "0", "1.5", "true", "null"])
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    ODD_TEXT,
    st.text(max_size=12),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def _near(limit: int | None, default: int = 20) -> st.SearchStrategy[int]:
    if limit is None:
        return st.integers(0, default)
    return st.integers(max(0, limit - 2), limit + 2)


def _values(field: fields.Field) -> st.SearchStrategy[Any]:
    """Values aimed at the field's edges (lengths and bounds around its limits, its choices), and junk."""
    kind = type(field)
    if kind is fields.CharField:
        sized = _near(field.max_length).map(lambda n: "x" * n)
        aimed = st.one_of(sized, ODD_TEXT, st.text(max_size=30), st.integers(-5, 5), st.floats(-2, 2))
    elif kind is fields.RegexField:
        aimed = st.one_of(_matching(field), _matching(field).map(lambda t: f" {t}\n"), _values(_as_char(field)))
    elif kind is fields.UUIDField:
        aimed = st.one_of(UUID_TEXT, st.integers(0, 2**130), st.uuids(), st.text(max_size=36))
    elif kind is fields.JSONField:
        aimed = st.one_of(JSON_VALUES, st.just({"a": {1, 2}}), st.just({("a",): 1}))
    elif kind is serializers.ListSerializer:
        aimed = st.lists(_values(field.child), max_size=3)
    elif kind is fields.ChoiceField:
        aimed = st.one_of(st.sampled_from(sorted(field.choice_strings_to_values)), st.just(""), st.text(max_size=8))
    elif kind in (fields.IntegerField, fields.FloatField):
        low = field.min_value if field.min_value is not None else -10
        high = field.max_value if field.max_value is not None else 10
        numbers = st.integers(int(low) - 2, int(high) + 2)
        aimed = st.one_of(numbers, numbers.map(float), st.floats(low - 1, high + 1), numbers.map(str))
    elif kind is fields.BooleanField:
        aimed = st.one_of(st.booleans(), st.sampled_from([0, 1, "true", "false", "yes", "TRUE", "Off", "null"]))
    elif kind is fields.DateTimeField:
        aimed = st.sampled_from(["2030-01-02T03:04:05Z", "2030-01-02", "soon"])
    elif kind is fields.ListField:
        limit = field.max_length if field.max_length is not None else 4
        aimed = st.lists(_values(field.child), max_size=limit + 2)
    elif isinstance(field, serializers.Serializer):
        aimed = st.one_of(_one_off(field), _members(field, _values))
    else:
        raise AssertionError(f"no strategy for {kind.__name__}")
    return st.one_of(aimed, aimed, aimed, JUNK)  # mostly aimed at the field, now and then anything


PLAIN_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
UUID_TEXT = st.uuids().flatmap(
    lambda u: st.sampled_from([str(u), u.hex, str(u).upper(), f"{{{u}}}", f"urn:uuid:{u}", f" {u}", str(u)[:-1]])
)
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-9, 9), st.floats(allow_nan=False), st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=6,
)


def _as_char(field: fields.RegexField) -> fields.CharField:
    return fields.CharField(max_length=field.max_length, allow_blank=field.allow_blank)


def _matching(field: fields.RegexField) -> st.SearchStrategy[str]:
    """Text its regular expression takes, within the field's length."""
    (pattern,) = [v.regex.pattern for v in field.validators if isinstance(v, RegexValidator)]
    limit = field.max_length or 30
    return st.from_regex(pattern, fullmatch=True).filter(lambda t: len(t) <= limit + 2)


def _valid(field: fields.Field) -> st.SearchStrategy[Any]:
    """Values DRF accepts for the field (its limits and choices respected)."""
    kind = type(field)
    if kind is fields.CharField:
        limit = field.max_length or 30
        text = PLAIN_TEXT.map(lambda t: t[:limit]).filter(lambda t: field.allow_blank or t.strip())
        return st.one_of(text, st.just("y" * limit))
    if kind is fields.RegexField:
        return _matching(field).filter(lambda t: len(t) <= (field.max_length or 30))
    if kind is fields.UUIDField:
        return st.uuids().map(str)
    if kind is fields.JSONField:
        return st.dictionaries(st.text(max_size=4), JSON_VALUES, max_size=3)
    if kind is serializers.ListSerializer:
        return st.lists(_valid(field.child), min_size=1, max_size=3)
    if kind is fields.ChoiceField:
        return st.sampled_from(sorted(field.choice_strings_to_values))
    if kind is fields.IntegerField:
        return st.integers(field.min_value if field.min_value is not None else -9, field.max_value or 9)
    if kind is fields.FloatField:
        return st.floats(field.min_value or 0.0, field.max_value or 1.0)
    if kind is fields.BooleanField:
        return st.booleans()
    if kind is fields.DateTimeField:
        return st.none()
    if kind is fields.ListField:
        low, high = field.min_length or 0, field.max_length or 4
        return st.lists(_valid(field.child), min_size=low, max_size=min(high, 5))
    if isinstance(field, serializers.Serializer):
        return _members(field, _valid, optional_only=True)
    raise AssertionError(f"no strategy for {kind.__name__}")


def _members(serializer: serializers.Serializer, values: Any, *, optional_only: bool = False) -> st.SearchStrategy:
    """Dicts of the serializer's fields (an optional one sometimes left out), with an unknown key now and then."""
    members = {}
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        value = values(field)
        members[name] = st.one_of(st.just(ABSENT), value, value) if not (optional_only and field.required) else value
    dicts = st.fixed_dictionaries(members).map(lambda d: {k: v for k, v in d.items() if v is not ABSENT})
    extra = st.dictionaries(st.sampled_from(["unknown", "level2"]), JUNK, max_size=1)
    return st.tuples(dicts, extra).map(lambda pair: {**pair[1], **pair[0]})


COMMON_EDGES = [None, True, 0, 1.5, "", " ", [], {}]


def _edges(field: fields.Field) -> list[Any]:
    """Values on and just past each of the field's limits, and of the wrong kinds."""
    kind = type(field)
    if kind is fields.CharField:
        limit = field.max_length or 30
        return [*COMMON_EDGES, "x" * limit, "x" * (limit + 1), " x ", "a\x00b", "a\ud800b", 7]
    if kind is fields.RegexField:
        limit = field.max_length or 30
        return [*COMMON_EDGES, "a" * limit, "a" * (limit + 1), "a\n", "-a", "a b", "a\x00", 7]
    if kind is fields.UUIDField:
        some = uuid.UUID(int=7)
        return [*COMMON_EDGES, str(some), some.hex, str(some).upper(), str(some)[1:], some.int, f"{{{some}}}"]
    if kind is fields.JSONField:
        return [*COMMON_EDGES, {"a": None}, {"a": [1, {"b": 2}]}, {"n": float("nan")}, [1], "{}", {"s": {1}}]
    if kind is serializers.ListSerializer:
        item = _baseline(field.child)
        return [*COMMON_EDGES, [item], [item] * 100, [item] * 101, [item, None], [item, "a"]]
    if kind is fields.ChoiceField:
        first = sorted(field.choice_strings_to_values)[0]
        return [*COMMON_EDGES, first, first.upper(), f" {first}", "nope"]
    if kind in (fields.IntegerField, fields.FloatField):
        low = field.min_value if field.min_value is not None else -9
        high = field.max_value if field.max_value is not None else 9
        return [*COMMON_EDGES, low, low - 1, high, high + 1, high + 0.5, str(high), float("nan"), float("inf"), 2**80]
    if kind is fields.BooleanField:
        return [*COMMON_EDGES, False, 1, "true", "no"]
    if kind is fields.DateTimeField:
        return [*COMMON_EDGES, "2030-01-02T03:04:05Z", "later"]
    if kind is fields.ListField:
        low, high = field.min_length or 0, field.max_length or 4
        return [
            *COMMON_EDGES,
            "a",
            ["ok"] * low,
            ["ok"] * high,
            ["ok"] * (high + 1),
            *[[e] for e in _edges(field.child)],
        ]
    return [*COMMON_EDGES, "a"]


def _one_off(serializer: serializers.Serializer) -> st.SearchStrategy[Any]:
    """A valid request with one field's value at one of that field's edges: each limit meets DRF alone."""
    names = [name for name, field in serializer.fields.items() if not field.read_only]
    valid = _members(serializer, _valid, optional_only=True)

    def aimed(name: str) -> st.SearchStrategy[Any]:
        field = serializer.fields[name]
        if isinstance(field, serializers.Serializer):
            return st.one_of(_one_off(field), st.sampled_from(_edges(field)))
        return st.one_of(st.sampled_from(_edges(field)), _values(field))

    return st.tuples(valid, st.sampled_from(names)).flatmap(
        lambda pair: aimed(pair[1]).map(lambda value: {**pair[0], pair[1]: value})
    )


def _payloads(serializer: serializers.Serializer) -> st.SearchStrategy[Any]:
    """Valid requests, valid ones with one field at its edges, ones aimed everywhere, now and then not a mapping;
    for a serializer of query parameters, as often the same as a ``QueryDict``."""
    valid = _members(serializer, _valid, optional_only=True)
    payloads = st.one_of(valid, _one_off(serializer), _one_off(serializer), _members(serializer, _values), JUNK)
    if type(serializer) in QUERIES:
        mappings = payloads.filter(lambda data: isinstance(data, dict))
        return st.one_of(payloads, mappings.map(_as_query), mappings.map(_as_query))
    return payloads


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return "" if value is None else str(value)


def _as_query(data: dict[str, Any]) -> QueryDict:
    """The mapping as query parameters: text, a list as a repeated parameter (its last value counts)."""
    query = QueryDict(mutable=True)
    for key, value in data.items():
        query.setlist(key, [_as_text(v) for v in value] if isinstance(value, list) else [_as_text(value)])
    return query


def _drf(serializer_class: type[serializers.Serializer], data: Any) -> tuple[bool, Any]:
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return True, serializer.validated_data
    return False, serializer.errors


def test_every_input_serializer_on_the_hot_paths_gets_a_plan():
    for serializer_class in PLANNED:
        assert _plan_of(serializer_class) is not None, serializer_class.__name__


@pytest.mark.parametrize("serializer_class", PLANNED, ids=lambda cls: cls.__name__)
def test_the_plan_agrees_with_drf_on_generated_input(serializer_class):
    plan = _plan_of(serializer_class)
    accepted = []

    @settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
    @given(_payloads(serializer_class()))
    def agree(data: Any) -> None:
        drf_valid, drf_answer = _drf(serializer_class, data)
        try:
            planned = plan(data)
        except Exception:  # the plan steps aside: nothing to compare
            planned = None
        else:
            assert drf_valid, f"the plan accepted what DRF refuses: {data!r} → {drf_answer}"
            assert planned == drf_answer and type(planned) is dict
            accepted.append(data)
        if drf_valid:
            assert validated(serializer_class, data) == drf_answer
        else:
            with pytest.raises(ValidationError) as refused:
                validated(serializer_class, data)
            assert refused.value.detail == drf_answer  # DRF's own errors, field by field
        del planned

    agree()
    assert len(accepted) >= 60  # the plan took a real share of the inputs, not only stepped aside


def _baseline(serializer: serializers.Serializer) -> dict[str, Any]:
    """A small valid request: every required field with a plain value."""
    plain: dict[str, Any] = {}
    for name, field in serializer.fields.items():
        if field.read_only or not field.required:
            continue
        kind = type(field)
        if isinstance(field, serializers.Serializer):
            plain[name] = _baseline(field)
        elif kind is serializers.ListSerializer:
            plain[name] = [_baseline(field.child)]
        elif kind is fields.UUIDField:
            plain[name] = str(uuid.UUID(int=1))
        elif kind is fields.ListField:
            plain[name] = ["ok"] * max(1, field.min_length or 0)
        elif kind is fields.ChoiceField:
            plain[name] = sorted(field.choice_strings_to_values)[0]
        elif kind in (fields.IntegerField, fields.FloatField):
            plain[name] = field.min_value if field.min_value is not None else 1
        else:
            plain[name] = {fields.CharField: "v", fields.RegexField: "v", fields.BooleanField: False}[kind]
    return plain


def _edge_cases(serializer: serializers.Serializer) -> list[Any]:
    """The baseline with each field, one at a time and at any depth, set to each of its edges or left out."""
    base, cases = _baseline(serializer), []
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        cases.append({k: v for k, v in base.items() if k != name})
        if isinstance(field, serializers.Serializer):
            cases += [{**base, name: inner} for inner in _edge_cases(field)]
        if isinstance(field, serializers.ListSerializer):  # each edge of an item, as the list's second item
            first = _baseline(field.child)
            cases += [{**base, name: [first, inner]} for inner in _edge_cases(field.child)]
        cases += [{**base, name: edge} for edge in _edges(field)]
    return cases


@pytest.mark.parametrize("serializer_class", PLANNED, ids=lambda cls: cls.__name__)
def test_the_plan_agrees_with_drf_on_every_edge_of_every_field(serializer_class):
    plan, planned = _plan_of(serializer_class), 0
    cases = _edge_cases(serializer_class())
    if serializer_class in QUERIES:
        cases += [_as_query(case) for case in cases]
    for data in cases:
        drf_valid, drf_answer = _drf(serializer_class, data)
        try:
            answer = plan(data)
        except Exception:
            continue
        planned += 1
        assert drf_valid and answer == drf_answer, f"{data!r}: planned {answer!r}, DRF {drf_answer!r}"
    assert planned >= 3  # the plan took the valid edges itself, not only stepped aside


def test_a_plain_valid_write_is_planned_and_an_invalid_one_gets_drfs_error():
    body = {"content": " I prefer tables ", "scope": {"level": "user", "user_id": "alice"}}
    body["source"] = {"source_type": "explicit_user_request"}
    values = _plan_of(WriteRequestSerializer)(body)
    assert values["content"] == " I prefer tables "  # trim_whitespace=False on content, as DRF keeps it
    assert values["scope"]["team"] == "" and values["confidence"] == 1.0 and values["type"] is None
    with pytest.raises(ValidationError) as refused:
        validated(WriteRequestSerializer, {**body, "scope": {"level": "galaxy"}})
    assert "level" in refused.value.detail["scope"]
    with pytest.raises(ValidationError) as refused:
        validated(WriteRequestSerializer, {**body, "confidence": 1.5})
    assert refused.value.detail["confidence"] == ["Ensure this value is less than or equal to 1.0."]


class _Hooked(serializers.Serializer):
    name = serializers.CharField()

    def validate_name(self, value: str) -> str:
        return value.upper()


class _OtherSource(serializers.Serializer):
    name = serializers.CharField(source="label")


class _Dated(serializers.Serializer):
    when = serializers.DateTimeField(required=False, allow_null=True, default=None)


def test_a_serializer_with_hooks_or_other_sources_is_left_to_drf():
    assert _plan_of(_Hooked) is None and validated(_Hooked, {"name": "ada"}) == {"name": "ADA"}
    assert _plan_of(_OtherSource) is None and validated(_OtherSource, {"name": "ada"}) == {"label": "ada"}


def test_a_date_is_parsed_by_drf_and_its_absence_planned():
    assert _plan_of(_Dated)({}) == {"when": None}
    when = validated(_Dated, {"when": "2030-01-02T03:04:05Z"})["when"]
    assert when.year == 2030 and when.tzinfo is not None


class _MarkedHook(serializers.Serializer):
    count = serializers.IntegerField()

    @reads_only_its_value
    def validate_count(self, value: int) -> int:
        if value % 2:
            raise serializers.ValidationError("Send an even count.")
        return value * 10


def test_a_hook_marked_as_reading_only_its_value_is_planned_and_its_refusal_is_drfs():
    assert _plan_of(_MarkedHook)({"count": 2}) == {"count": 20}
    with pytest.raises(ValidationError) as refused:
        validated(_MarkedHook, {"count": 3})
    assert refused.value.detail == {"count": ["Send an even count."]}


def test_query_parameters_are_read_as_drf_reads_them():
    query = QueryDict("user_id=alice&workspace=&limit=20&limit=5")
    values = _plan_of(SessionListQuery)(query)
    # The last value of a repeated one counts, a missing boolean is false, a blank optional one is left out.
    assert values == {"user_id": "alice", "last": False, "limit": 5} == _drf(SessionListQuery, query)[1]
    assert _plan_of(BranchQuery)(QueryDict("after=&limit=")) == {"limit": 100}
    with pytest.raises(ValidationError) as refused:
        validated(BranchQuery, QueryDict("after=not-a-uuid"))
    assert refused.value.detail == {"after": ["Must be a valid UUID."]}
