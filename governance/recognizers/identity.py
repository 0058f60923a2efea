"""Numbers that identify a person: resident ids, passports, SSNs, bank cards (all ``restricted``),
and phone numbers and street addresses (``high``). A city alone ("住在杭州市") is not an address.

Wherever a format carries a checksum it is verified, so that a random 18-digit or 16-digit number
(an order id, a timestamp) is not taken for an id or a card.
"""

from __future__ import annotations

import re

import phonenumbers

from governance.recognizers.checksums import (
    cn_legacy_resident_id_valid,
    cn_resident_id_structure_valid,
    cn_resident_id_valid,
    luhn_valid,
    us_ssn_valid,
)
from governance.recognizers.entities import EntityType as E
from governance.recognizers.rules import DIGITS, NOT_AFTER_ALNUM, NOT_BEFORE_ALNUM, Rule

_DIGITS_ONLY = re.compile(r"\D")
# Major card networks start with 2 (Mastercard 2-series, Mir), 3 (Amex, JCB, Diners), 4 (Visa),
# 5 (Mastercard, Maestro), 6 (UnionPay, Discover, Maestro); 9 covers mainland domestic debit cards,
# which have 19 digits.
_CARD_FIRST_DIGITS = frozenset("234569")


def _digits(text: str) -> str:
    return _DIGITS_ONLY.sub("", text)


def _resident_id(match: re.Match[str]) -> bool:
    return cn_resident_id_valid(match.group("id").replace(" ", ""))


def _legacy_resident_id(match: re.Match[str]) -> bool:
    return cn_legacy_resident_id_valid(match.group("id"))


def _bank_card(match: re.Match[str]) -> bool:
    digits = _digits(match.group(0))
    if not 13 <= len(digits) <= 19 or digits[0] not in _CARD_FIRST_DIGITS:
        return False
    if digits[0] == "9" and len(digits) != 19:
        return False
    if len(set(digits)) == 1 or cn_resident_id_structure_valid(digits):
        return False
    return luhn_valid(digits)


def _ssn(match: re.Match[str]) -> bool:
    return us_ssn_valid(_digits(match.group("ssn")))


def _passport(match: re.Match[str]) -> bool:
    return len(set(_digits(match.group("number")))) > 1


def _international_phone(match: re.Match[str]) -> bool:
    try:
        number = phonenumbers.parse(match.group(0), None)
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(number)


def _nanp_phone(match: re.Match[str]) -> bool:
    digits = _digits(match.group(0))
    return digits[0] not in "01" and digits[3] not in "01"


IDENTITY_RULES: tuple[Rule, ...] = (
    Rule(
        E.CN_RESIDENT_ID,
        re.compile(
            rf"{NOT_AFTER_ALNUM}(?P<id>[1-9]\d{{5}} ?(?:18|19|20)\d{{2}}(?:0[1-9]|1[0-2])"
            rf"(?:0[1-9]|[12]\d|3[01]) ?\d{{3}}[0-9Xx]){NOT_BEFORE_ALNUM}"
        ),
        _resident_id,
        hints=DIGITS,
    ),
    Rule(
        E.CN_RESIDENT_ID,
        re.compile(
            r"(?:身份证|身份證|(?i:id card|identity card|id number|national id))[^\n0-9]{0,10}"
            rf"(?<![0-9])(?P<id>\d{{15}}){NOT_BEFORE_ALNUM}"
        ),
        _legacy_resident_id,
        group="id",
        hints=("身份证", "身份證", "id card", "identity card", "id number", "national id"),
    ),
    Rule(
        E.PASSPORT_NUMBER,
        re.compile(
            r"(?:(?i:passport)|护照|護照|通行证|通行證)[^\n]{0,20}?"
            rf"{NOT_AFTER_ALNUM}(?P<number>[A-Za-z]{{1,2}}\d{{7,8}}|\d{{9}}){NOT_BEFORE_ALNUM}"
        ),
        _passport,
        group="number",
        hints=("passport", "护照", "護照", "通行证", "通行證"),
    ),
    Rule(
        E.US_SSN,
        re.compile(r"(?<![0-9A-Za-z-])(?P<ssn>\d{3}-\d{2}-\d{4})(?![0-9A-Za-z-])"),
        _ssn,
        group="ssn",
        hints=("-",),
    ),
    Rule(
        E.US_SSN,
        re.compile(
            r"(?i:ssn|social security(?: number| no\.?)?)[^\n0-9]{0,12}"
            r"(?<![0-9])(?P<ssn>\d{3}[- ]?\d{2}[- ]?\d{4})(?![0-9])"
        ),
        _ssn,
        group="ssn",
        hints=("ssn", "social security"),
    ),
    Rule(
        E.BANK_CARD_NUMBER,
        re.compile(
            r"(?<![0-9A-Za-z-])(?:\d{13,19}|\d{4}(?:[ -]\d{4}){2}[ -]\d{1,7}|\d{4}[ -]\d{6}[ -]\d{4,5}"
            r"|\d{6}[ -]\d{12,13})(?![0-9A-Za-z-])"
        ),
        _bank_card,
        hints=DIGITS,
    ),
    Rule(
        E.PHONE_NUMBER,
        re.compile(r"(?<![0-9A-Za-z+])(?:(?:\+|00)?86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?![0-9A-Za-z])"),
        hints=DIGITS,
    ),
    Rule(
        E.PHONE_NUMBER,
        re.compile(r"(?<![0-9A-Za-z-])0\d{2,3}-\d{7,8}(?![0-9A-Za-z-])"),
        hints=("-",),
    ),
    Rule(
        E.PHONE_NUMBER,
        re.compile(r"(?<![0-9A-Za-z+])\+[1-9][0-9 ().-]{6,18}[0-9](?![0-9A-Za-z])"),
        _international_phone,
        hints=("+",),
    ),
    Rule(
        E.PHONE_NUMBER,
        re.compile(r"(?<![0-9A-Za-z+(-])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?![0-9A-Za-z-])"),
        _nanp_phone,
        hints=("-", ".", "("),
    ),
    Rule(
        E.STREET_ADDRESS,
        re.compile(
            r"[\u4e00-\u9fff]{1,10}(?:路|街|大道|大街|巷|弄|胡同)\d{1,5}(?:号|號)"
            r"|(?:住址|家庭住址|家住|住在|收货地址|收件地址|居住地址)\s*(?:是|为|:)?\s*"
            r"[\u4e00-\u9fff]{2,}?(?:省|市)[\u4e00-\u9fff]{1,10}?(?:区|县|镇|村|小区|路|街)"
        ),
        hints=("号", "號", "住", "地址"),
    ),
    Rule(
        E.STREET_ADDRESS,
        re.compile(
            rf"{NOT_AFTER_ALNUM}\d{{1,5}}\s+(?:[A-Z][a-z]+\.?\s+){{1,3}}"
            r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way"
            r"|Place|Pl|Terrace|Parkway|Pkwy|Square|Sq)\.?(?![A-Za-z])"
        ),
        hints=DIGITS,
    ),
)
