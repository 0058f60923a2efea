"""Checksums and statistics that tell a real identifier or secret from a random look-alike.

Pure functions over strings: no regexes, no presidio, so each can be tested on its own.
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import date
from itertools import pairwise

_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK_CHARS = "10X98765432"
# GB/T 2260 province-level codes; the first two digits of every mainland resident id.
_CN_PROVINCE_CODES = frozenset(
    {
        "11", "12", "13", "14", "15",
        "21", "22", "23",
        "31", "32", "33", "34", "35", "36", "37",
        "41", "42", "43", "44", "45", "46",
        "50", "51", "52", "53", "54",
        "61", "62", "63", "64", "65",
        "71", "81", "82", "83", "91",
    }
)  # fmt: skip
# Numbers the SSA never issued, or published so widely they identify no one.
_SSN_NEVER_ISSUED = frozenset({"078051120", "219099999", "123456789"})


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod 10) check that every payment card number carries."""
    if not digits.isdigit() or not digits.isascii():
        return False
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def cn_resident_id_check_char(first17: str) -> str:
    """The ISO 7064 MOD 11-2 check character (``0``-``9`` or ``X``) of a mainland resident id."""
    if len(first17) != 17 or not first17.isdigit() or not first17.isascii():
        raise ValueError("expected the first 17 digits of a resident id")
    total = sum(int(d) * w for d, w in zip(first17, _CN_ID_WEIGHTS, strict=True))
    return _CN_ID_CHECK_CHARS[total % 11]


def _is_real_date(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return 1900 <= year <= 2099


def cn_resident_id_structure_valid(number: str) -> bool:
    """A province code and a real birth date where an 18-digit resident id has them.

    Without the check digit: an 18-digit number with this structure is an id attempt (maybe
    mistyped), never a bank card, so the card check uses this to stay out of its way.
    """
    if len(number) != 18 or not number[:17].isdigit() or not number.isascii():
        return False
    return number[:2] in _CN_PROVINCE_CODES and _is_real_date(int(number[6:10]), int(number[10:12]), int(number[12:14]))


def cn_resident_id_valid(number: str) -> bool:
    """An 18-character mainland resident id: structure plus the MOD 11-2 check character."""
    if not cn_resident_id_structure_valid(number):
        return False
    return number[17].upper() == cn_resident_id_check_char(number[:17])


def cn_legacy_resident_id_valid(number: str) -> bool:
    """A 15-digit (pre-1999) resident id: it has no check digit, only the province and a 19YY date."""
    if len(number) != 15 or not number.isdigit() or not number.isascii():
        return False
    return number[:2] in _CN_PROVINCE_CODES and _is_real_date(
        1900 + int(number[6:8]), int(number[8:10]), int(number[10:12])
    )


def us_ssn_valid(digits: str) -> bool:
    """A US social security number outside the ranges the SSA never assigns."""
    if len(digits) != 9 or not digits.isdigit() or not digits.isascii():
        return False
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return False
    return digits not in _SSN_NEVER_ISSUED and len(set(digits)) > 1


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text`` taken as a sample of its own character distribution."""
    if not text:
        return 0.0
    length = len(text)
    return -sum(n / length * math.log2(n / length) for n in Counter(text).values())


def _char_class(char: str) -> str:
    if "a" <= char <= "z":
        return "l"
    if "A" <= char <= "Z":
        return "u"
    if "0" <= char <= "9":
        return "d"
    return "s"


def class_transition_rate(text: str) -> float:
    """How often adjacent characters switch between lower, upper, digit and symbol.

    Random base62/base64 strings switch at about 0.6; identifiers built from words
    (``getUserProfileById2024``) at about 0.3, because each word is a run of one class.
    """
    if len(text) < 2:
        return 0.0
    classes = [_char_class(c) for c in text]
    return sum(a != b for a, b in pairwise(classes)) / (len(text) - 1)


def wordy_lowercase_fraction(text: str) -> float:
    """The share of lowercase letters that sit in runs of three or more (word fragments)."""
    lowercase = 0
    in_long_runs = 0
    run = 0
    for char in [*text, " "]:
        if "a" <= char <= "z":
            run += 1
            continue
        lowercase += run
        if run >= 3:
            in_long_runs += run
        run = 0
    return in_long_runs / lowercase if lowercase else 0.0
