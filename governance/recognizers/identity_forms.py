"""Personal data in the surface forms people actually type: grouped, dashed, dotted and spaced digits,
other countries' national ids, driver licences, passports of many formats, phones anywhere, e-mail
addresses written out in words, postal addresses outside the US and mainland templates.

Each rule reads the digits of a run however they are grouped (``110101 1990 0307 8531``,
``6222-0212-3456-7890-128``) and checks the checksum where the format has one — with
python-stdnum's validators where it has the country (Korean RRN, Aadhaar's Verhoeff digit, Japan's
My Number), our own for the mainland resident id and Luhn. A number shaped like an id next to an id
word but failing its check digit is reported as :data:`ID_NUMBER_SUSPECT` (``high``): a typo in a
real id is still an id.
"""

from __future__ import annotations

import re

import phonenumbers
from stdnum.in_ import aadhaar
from stdnum.jp import in_ as jp_my_number
from stdnum.kr import rrn as kr_rrn

from governance.recognizers.checksums import (
    cn_resident_id_structure_valid,
    cn_resident_id_valid,
    luhn_valid,
    us_ssn_valid,
)
from governance.recognizers.entities import EntityType as E
from governance.recognizers.rules import DIGITS, Rule

_NON_DIGIT = re.compile(r"\D")
# A run of digits in groups: separators are one space, dash, dot or nothing.
_RUN = r"(?<![0-9A-Za-z])\d(?:[ .\-]?\d){11,21}[0-9Xx]?(?![0-9A-Za-z])"
_ID_WORDS = (
    r"身份证|身份證|居民身份|公民身份|身份号码|证件号|(?i:resident id\w*|identity card|id card|id number|id no\.?|"
    r"national id|"
    r"citizen id|identity number)"
)
_CARD_WORDS = (
    r"卡号|银行卡|信用卡|借记卡|储蓄卡|(?i:card(?: number| no\.?)?|visa|mastercard|amex|unionpay|debit|credit)"
)


def _digits(text: str) -> str:
    return _NON_DIGIT.sub("", text)


def _cn_id(match: re.Match[str]) -> bool:
    raw = re.sub(r"[ .\-]", "", match.group(0))
    return len(raw) == 18 and cn_resident_id_valid(raw.upper())


def _cn_id_suspect(match: re.Match[str]) -> bool:
    raw = re.sub(r"[ .\-]", "", match.group("id"))
    return len(raw) == 18 and raw[:17].isdigit() and not cn_resident_id_valid(raw.upper())


def _card(match: re.Match[str]) -> bool:
    if match.string[max(0, match.start() - 1) : match.start()] == "+":
        return False  # "+44 20 7946 0170": an international phone number, whatever its Luhn digit
    digits = _digits(match.group(0))
    grouped = not match.group(0).isdigit()
    if not (12 if grouped else 13) <= len(digits) <= 19 or len(set(digits)) == 1:
        return False
    if not grouped and digits[0] not in "234569":  # the networks' first digits (see identity.py)
        return False
    if digits[0] == "9" and len(digits) != 19:  # 9: mainland domestic debit cards, 19 digits
        return False
    if len(digits) == 18 and cn_resident_id_structure_valid(digits):
        return False  # shaped like a resident id (region, date): the id rules decide
    return luhn_valid(digits)


def _card_near_word(match: re.Match[str]) -> bool:
    digits = _digits(match.group("number"))
    return 12 <= len(digits) <= 19 and luhn_valid(digits)


def _ssn(match: re.Match[str]) -> bool:
    return us_ssn_valid(_digits(match.group("ssn")))


def _kr(match: re.Match[str]) -> bool:
    return kr_rrn.is_valid(_digits(match.group("id"))) or bool(match.group("word"))


def _aadhaar(match: re.Match[str]) -> bool:
    # Any 12 digits pass Verhoeff one time in ten: a bare run needs the id's own grouping or its name.
    return bool(match.group("word") or match.group("sep")) and aadhaar.is_valid(_digits(match.group("id")))


def _my_number(match: re.Match[str]) -> bool:
    return jp_my_number.is_valid(_digits(match.group("id")))


def _hkid(match: re.Match[str]) -> bool:
    letters, digits, check = match.group("letters").upper(), match.group("digits"), match.group("check").upper()
    values = [36 if len(letters) == 1 else ord(letters[0]) - 55, ord(letters[-1]) - 55, *map(int, digits)]
    total = sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True))
    expected = (11 - total % 11) % 11
    return check == ("A" if expected == 10 else str(expected))


def _tw_id(match: re.Match[str]) -> bool:
    code = "ABCDEFGHJKLMNPQRSTUVXYWZIO".index(match.group("letter").upper()) + 10
    digits = [code // 10, code % 10, *map(int, match.group("digits"))]
    weights = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1]
    return sum(d * w for d, w in zip(digits, weights, strict=True)) % 10 == 0


# The general form: a word naming a government document, then within a few characters a token shaped
# like its number — 6 to 20 capital letters and digits, grouped or not ("ZW 61 42 64 D",
# "C505-171-72-266-4", "ZWFSCVSPGJG"). Formats differ by country and change; the shape does not.
_DOCUMENT_WORDS = {
    E.DRIVER_LICENSE: (
        r"驾驶证|驾照|駕照|駕駛執照|驾驶执照|(?i:driv(?:er'?s?|ing) licen[cs]e|licen[cs]e (?:no\.?|number)|"
        r"dl (?:no\.?|number|#)|führerschein|permis de conduire|carnet de conducir|patente)"
    ),
    E.PASSPORT_NUMBER: (r"护照|護照|通行证|通行證|旅券|여권|(?i:passport|reisepass|passeport|pasaporte|passaporto)"),
    E.NATIONAL_ID: (
        r"国民保险|國民保險|社会保险号|社保号|税号|纳税人识别号|居留证|居留許可|身份号码|身份证号?|证件号码?|个人编号|"
        r"(?i:national (?:id|identity|insurance)(?: number| no\.?| card)?|ni number|nino|national registration|"
        r"personal (?:id|identification) (?:number|code)|tax (?:id|identification number)|tin|residence permit|"
        r"id (?:card )?(?:number|no\.?)|identity (?:card|number))"
    ),
}
_ID_TOKEN = r"(?<![A-Za-z0-9])(?P<value>[A-Z0-9](?:[ \-]?[A-Z0-9]){5,21})(?![A-Za-z0-9])"
_DATE_LIKE = re.compile(r"^(?:19|20)\d{2}[ \-]?\d{2}[ \-]?\d{2}")
# 15 or 18 digits (the last may be X): the mainland resident id's shape, which its own rules judge
# by the check digit (restricted when it holds, ID_NUMBER_SUSPECT when it fails).
_CN_ID_SHAPE = re.compile(r"^(?:\d{15}|\d{17}[\dX])$")


def _id_shaped(match: re.Match[str]) -> bool:
    value = match.group("value")
    compact = re.sub(r"[ \-]", "", value)
    if not 6 <= len(compact) <= 20 or _DATE_LIKE.match(value) or _CN_ID_SHAPE.match(compact):
        return False
    digits = sum(c.isdigit() for c in compact)
    # Digits in it, or a run of capitals too long to be a word or an acronym.
    return digits >= 2 or (digits == 0 and len(compact) >= 8)


def _document_rules() -> tuple[Rule, ...]:
    return tuple(
        Rule(
            entity,
            re.compile(rf"(?<![A-Za-z])(?:{words})(?![a-z])[^\n0-9A-Z]{{0,20}}?{_ID_TOKEN}"),
            _id_shaped,
            group="value",
            hints=_DOCUMENT_HINTS[entity],
        )
        for entity, words in _DOCUMENT_WORDS.items()
    )


_DOCUMENT_HINTS = {
    E.DRIVER_LICENSE: ("驾", "駕", "licen", "dl ", "führerschein", "permis", "carnet", "patente"),
    E.PASSPORT_NUMBER: ("护照", "護照", "通行", "旅券", "여권", "passport", "reisepass", "passeport", "pasaporte",
                        "passaporto"),
    E.NATIONAL_ID: ("国民", "國民", "社会保险", "社保", "税号", "纳税", "居留", "身份", "证件", "编号", "national",
                    "ni number", "nino", "personal", "tax", "tin", "residence", "id ", "identity"),
}  # fmt: skip


def _has_digit(match: re.Match[str]) -> bool:
    value = match.group("value")
    return sum(c.isdigit() for c in value) >= 3


def _phone(match: re.Match[str]) -> bool:
    raw = match.group("number")
    digits = _digits(raw)
    if not 7 <= len(digits) <= 15:
        return False
    for region in ("CN", "US", "GB", "FR", "DE", "JP", "IN", "AU", "KR", "SG", "HK", "TW", "IT", "ES", "NL", "BR"):
        try:
            if phonenumbers.is_valid_number(phonenumbers.parse(raw, region)):
                return True
        except phonenumbers.NumberParseException:
            continue
    return False


_PHONE_WORDS = (
    r"电话|手机|手机号|座机|联系方式|联系电话|打我|致电|(?i:phone|mobile|cell|tel\.?|telephone|call me|reach me|"
    r"office line|landline|whatsapp|fax)"
)
# Street words; the ones that are also common English words count only capitalized ("Via Roma 10").
_STREET = (
    r"(?:(?i:rue|boulevard|chemin|allée|viale|piazza|calle|avenida|rua|travessa|straße|strasse|gasse|platz|"
    r"gracht|laan|plein|kade)|Avenue|Av\.|Place|Via|Corso|Plaza|Paseo|Weg|Allee|Road|Street|Lane|Drive|Crescent|"
    r"Close|Terrace|Parade|Highway)"
)

IDENTITY_FORM_RULES: tuple[Rule, ...] = (
    Rule(E.CN_RESIDENT_ID, re.compile(_RUN), _cn_id, hints=DIGITS),
    *_document_rules(),
    Rule(
        E.ID_NUMBER_SUSPECT,
        re.compile(rf"(?:{_ID_WORDS})[^\n0-9]{{0,12}}(?P<id>\d(?:[ .\-]?\d){{16}}[0-9Xx])(?![0-9A-Za-z])"),
        _cn_id_suspect,
        group="id",
        hints=("身份", "证件", "id", "identity"),
    ),
    Rule(E.BANK_CARD_NUMBER, re.compile(_RUN), _card, hints=DIGITS),
    Rule(
        E.BANK_CARD_NUMBER,
        re.compile(rf"(?:{_CARD_WORDS})[^\n0-9]{{0,16}}(?P<number>\d(?:[ .\-]?\d){{11,18}})(?![0-9])"),
        _card_near_word,
        group="number",
        hints=("卡", "card", "visa", "master", "amex", "unionpay", "debit", "credit"),
    ),
    Rule(
        E.US_SSN,
        re.compile(
            r"(?:(?i:ssn|social security(?: number| no\.?)?|social insurance)|社会安全号码?|社会保障号|社保号)"
            r"[^\n0-9]{0,14}(?<![0-9])(?P<ssn>\d{3}[- .]?\d{2}[- .]?\d{4})(?![0-9])"
        ),
        _ssn,
        group="ssn",
        hints=("ssn", "social", "社会", "社保"),
    ),
    Rule(
        E.NATIONAL_ID,
        re.compile(
            r"(?:(?P<word>(?i:resident registration|rrn|주민등록)|居民登录|居民登錄|身份证)[^\n0-9]{0,12})?"
            r"(?<![0-9])(?P<id>\d{6}-[1-8]\d{6})(?![0-9])"
        ),
        _kr,
        group="id",
        hints=("-",),
    ),
    Rule(
        E.NATIONAL_ID,
        re.compile(
            r"(?P<word>(?i:aadhaar|uidai|आधार)[^\n0-9]{0,12})?"
            r"(?<![0-9])(?P<id>[2-9]\d{3}(?P<sep>[ -]?)\d{4}(?P=sep)\d{4})(?![0-9])"
        ),
        _aadhaar,
        group="id",
        hints=DIGITS,
    ),
    Rule(
        E.NATIONAL_ID,
        re.compile(
            r"(?i:my number|マイナンバー|个人编号|個人番号)[^\n0-9]{0,12}(?P<id>\d{4}[ -]?\d{4}[ -]?\d{4})(?![0-9])"
        ),
        _my_number,
        group="id",
        hints=("my number", "マイナンバー", "编号", "番号"),
    ),
    Rule(
        E.NATIONAL_ID,
        re.compile(r"(?<![A-Za-z0-9])(?P<letters>[A-Z]{1,2})(?P<digits>\d{6})\s?\((?P<check>[0-9A])\)"),
        _hkid,
        hints=("(",),
    ),
    Rule(
        E.NATIONAL_ID,
        re.compile(r"(?<![A-Za-z0-9])(?P<letter>[A-Z])(?P<digits>[12]\d{8})(?![A-Za-z0-9])"),
        _tw_id,
        hints=DIGITS,
    ),
    Rule(
        E.NATIONAL_ID,
        re.compile(
            r"(?:(?i:nric|fin|national insurance|nino|ni number|身份证|身份號碼|身份证号)[^\n]{0,14}?)"
            r"(?<![A-Za-z0-9])(?P<value>[STFGM]\d{7}[A-Z]|[A-CEGHJ-PR-TW-Z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D])(?![A-Za-z0-9])"
        ),
        _has_digit,
        group="value",
        hints=("nric", "fin", "national insurance", "nino", "ni number", "身份"),
    ),
    Rule(
        E.PHONE_NUMBER,
        re.compile(rf"(?:{_PHONE_WORDS})[^\n0-9+(（]{{0,16}}(?P<number>[+(（]?\d[\d ()（）.\-]{{5,18}}\d)"),
        _phone,
        group="number",
        hints=(
            "电话",
            "手机",
            "座机",
            "联系",
            "打我",
            "致电",
            "phone",
            "mobile",
            "cell",
            "tel",
            "call",
            "reach",
            "line",
            "whatsapp",
            "fax",
        ),
    ),
    Rule(
        E.EMAIL_ADDRESS,
        re.compile(
            r"(?i)(?<![A-Za-z0-9])[A-Za-z0-9._%+-]+(?:\s*(?:\[at\]|\(at\)|\{at\}| at |＠)\s*)[A-Za-z0-9-]+"
            r"(?:\s*(?:\[dot\]|\(dot\)|\{dot\}| dot |\.)\s*[A-Za-z0-9-]+)*\s*(?:\[dot\]|\(dot\)|\{dot\}| dot |\.)\s*"
            r"(?:com|net|org|cn|de|fr|uk|jp|io|co|edu|gov|info|me)(?![A-Za-z])"
        ),
        hints=("at", "＠"),
    ),
    Rule(
        E.STREET_ADDRESS,
        re.compile(
            rf"(?:\d{{1,5}}[a-z]?,?\s+{_STREET}\s+[\w' .-]{{2,40}}|{_STREET}\s+[\w' .-]{{2,30}}?\s+\d{{1,5}}[a-z]?"
            rf"|[\w.-]{{3,30}}(?:straße|strasse|str\.|weg|gracht|laan|plein|gasse|platz)\s*\d{{1,5}}[a-z]?)"
            r"(?:,?\s*(?:\d{4,5}|\d{4}\s?[A-Z]{2}|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|\d{5}-\d{3}))?"
        ),
        hints=DIGITS,
    ),
    Rule(
        E.STREET_ADDRESS,
        re.compile(
            r"(?:東京都|北海道|(?:京都|大阪)府|[\u4e00-\u9fff]{2,3}県)[\u4e00-\u9fff]{1,6}[市区町村][\u4e00-\u9fff0-9０-９\-]{1,12}"
            r"(?:丁目|番地|番|号)"
            r"|[\uac00-\ud7af]{1,6}(?:시|도)\s?[\uac00-\ud7af]{1,6}(?:구|군)\s?[\uac00-\ud7af0-9]{1,10}(?:로|길)\s?\d{1,4}"
            r"|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}(?![A-Za-z])"
            r"|\d{1,5}\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,3},\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+(?:[A-Z]{2,3})\s+\d{4}"
        ),
        hints=DIGITS,
    ),
)
