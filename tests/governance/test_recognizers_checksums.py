"""The pure checks behind the recognizers: checksums, id structure, randomness measures."""

from __future__ import annotations

import pytest

from governance.recognizers.checksums import (
    class_transition_rate,
    cn_legacy_resident_id_valid,
    cn_resident_id_check_char,
    cn_resident_id_structure_valid,
    cn_resident_id_valid,
    luhn_valid,
    shannon_entropy,
    us_ssn_valid,
    wordy_lowercase_fraction,
)
from governance.recognizers.credentials import looks_random


@pytest.mark.parametrize(
    "digits",
    ["4111111111111111", "5522330011223343", "378282246310005", "6011111111111117", "79927398713"],
)
def test_luhn_accepts_valid_numbers(digits: str) -> None:
    assert luhn_valid(digits)


@pytest.mark.parametrize("digits", ["4111111111111112", "5522330011223344", "79927398710", "", "4111-1111", "４１"])
def test_luhn_rejects_invalid_numbers(digits: str) -> None:
    assert not luhn_valid(digits)


@pytest.mark.parametrize(
    ("first17", "check"),
    [("32010219950301456", "4"), ("11010519491231002", "X"), ("44052418800101001", "4")],
)
def test_it_computes_the_resident_id_check_char(first17: str, check: str) -> None:
    assert cn_resident_id_check_char(first17) == check


@pytest.mark.parametrize("bad", ["3201021995030145", "3201021995030145x6", "320102199503014567"])
def test_check_char_wants_exactly_17_digits(bad: str) -> None:
    with pytest.raises(ValueError, match="17 digits"):
        cn_resident_id_check_char(bad)


@pytest.mark.parametrize("number", ["320102199503014564", "11010519491231002X", "11010519491231002x"])
def test_it_accepts_valid_resident_ids(number: str) -> None:
    assert cn_resident_id_valid(number)


@pytest.mark.parametrize(
    "number",
    [
        "320102199503014565",  # wrong check digit
        "990102199503014564",  # no province 99
        "320102199502304568",  # 30 February
        "320102180013014561",  # month 13
        "32010219950301456",  # 17 digits
    ],
)
def test_it_rejects_invalid_resident_ids(number: str) -> None:
    assert not cn_resident_id_valid(number)


def test_structure_ignores_the_check_digit() -> None:
    assert cn_resident_id_structure_valid("320102199503014565")
    assert not cn_resident_id_structure_valid("420000000000000000")


def test_it_validates_legacy_15_digit_ids() -> None:
    assert cn_legacy_resident_id_valid("320102950301456")
    assert not cn_legacy_resident_id_valid("320102951301456")  # month 13
    assert not cn_legacy_resident_id_valid("990102950301456")  # no province 99


@pytest.mark.parametrize("digits", ["536221234", "001011234", "899991234"])
def test_it_accepts_assignable_ssns(digits: str) -> None:
    assert us_ssn_valid(digits)


@pytest.mark.parametrize(
    "digits",
    ["000121234", "666121234", "900121234", "536001234", "536220000", "078051120", "123456789", "111111111"],
)
def test_it_rejects_ssns_never_assigned(digits: str) -> None:
    assert not us_ssn_valid(digits)


@pytest.mark.parametrize(("text", "bits"), [("", 0.0), ("aaaa", 0.0), ("abab", 1.0), ("abcd", 2.0)])
def test_shannon_entropy(text: str, bits: float) -> None:
    assert shannon_entropy(text) == pytest.approx(bits)


def test_transition_rate_separates_random_from_words() -> None:
    assert class_transition_rate("a1B2c3D4") == 1.0
    assert class_transition_rate("aaaa") == 0.0
    assert class_transition_rate("getUserProfileById2024") < 0.45


def test_wordy_fraction_counts_lowercase_runs_of_three_or_more() -> None:
    assert wordy_lowercase_fraction("getUserById") == pytest.approx(6 / 8)
    assert wordy_lowercase_fraction("aB1cD2") == 0.0
    assert wordy_lowercase_fraction("ABC123") == 0.0


@pytest.mark.parametrize(
    "token",
    [
        "Q9vX2mLk7RtZ4pWn8YsB3cHf",
        "r7Kp2XwQ9mZt4LbN8vYc3HdF6gJs1TqW",
        "5uAOsdMHB3Uyw9LKTD1bRfoM0luDP/MyH0lvO7vX2xGLxy2fB6v5sQ0hzYhiQxYHQDvEde4aBqqjtwYmxxK9FC==",
    ],
)
def test_random_tokens_look_random(token: str) -> None:
    assert looks_random(token)


@pytest.mark.parametrize(
    "token",
    [
        "getUserProfileById2024",
        "ThisIsAVeryLongIdentifier1",
        "src/components/UserProfileCard2",
        "HTTPServerErrorHandler500",
        "release-2024-07-07-Hotfix",
        "3f786850e387550fdab836ed7e6dc881de23001b",  # a git SHA: hex has no upper case
        "123e4567-e89b-12d3-a456-426614174000",  # a UUID
        "Short1Token2",
    ],
)
def test_identifiers_hashes_and_uuids_do_not_look_random(token: str) -> None:
    assert not looks_random(token)
