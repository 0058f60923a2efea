"""The entity types the detector reports, and the sensitivity each one implies (§12.2).

Entity types are what audit events and decisions carry instead of the matched value, so their names
are a contract: add new ones freely, never rename one.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from governance.vocabulary import Sensitivity


class EntityType(StrEnum):
    # Secrets and credentials.
    SECRET_OPENAI_API_KEY = "SECRET_OPENAI_API_KEY"
    SECRET_ANTHROPIC_API_KEY = "SECRET_ANTHROPIC_API_KEY"
    SECRET_GITHUB_TOKEN = "SECRET_GITHUB_TOKEN"
    SECRET_GITLAB_TOKEN = "SECRET_GITLAB_TOKEN"
    SECRET_AWS_ACCESS_KEY_ID = "SECRET_AWS_ACCESS_KEY_ID"
    SECRET_AWS_SECRET_ACCESS_KEY = "SECRET_AWS_SECRET_ACCESS_KEY"
    SECRET_GOOGLE_API_KEY = "SECRET_GOOGLE_API_KEY"
    SECRET_SLACK_TOKEN = "SECRET_SLACK_TOKEN"
    SECRET_SLACK_WEBHOOK = "SECRET_SLACK_WEBHOOK"
    SECRET_STRIPE_KEY = "SECRET_STRIPE_KEY"
    SECRET_ALIBABA_ACCESS_KEY_ID = "SECRET_ALIBABA_ACCESS_KEY_ID"
    SECRET_TENCENT_SECRET_ID = "SECRET_TENCENT_SECRET_ID"
    SECRET_HUGGINGFACE_TOKEN = "SECRET_HUGGINGFACE_TOKEN"
    SECRET_NPM_TOKEN = "SECRET_NPM_TOKEN"
    SECRET_PYPI_TOKEN = "SECRET_PYPI_TOKEN"
    SECRET_SENDGRID_KEY = "SECRET_SENDGRID_KEY"
    SECRET_DIGITALOCEAN_TOKEN = "SECRET_DIGITALOCEAN_TOKEN"
    SECRET_TELEGRAM_BOT_TOKEN = "SECRET_TELEGRAM_BOT_TOKEN"
    SECRET_JWT = "SECRET_JWT"
    SECRET_PRIVATE_KEY = "SECRET_PRIVATE_KEY"
    SECRET_CONNECTION_STRING = "SECRET_CONNECTION_STRING"
    SECRET_PASSWORD = "SECRET_PASSWORD"
    SECRET_ASSIGNMENT = "SECRET_ASSIGNMENT"
    SECRET_HIGH_ENTROPY = "SECRET_HIGH_ENTROPY"
    SECRET_PROVIDER_TOKEN = "SECRET_PROVIDER_TOKEN"
    SECRET_KEYWORD_VALUE = "SECRET_KEYWORD_VALUE"
    SECRET_SEED_PHRASE = "SECRET_SEED_PHRASE"
    # Government and financial identifiers.
    CN_RESIDENT_ID = "CN_RESIDENT_ID"
    PASSPORT_NUMBER = "PASSPORT_NUMBER"
    US_SSN = "US_SSN"
    BANK_CARD_NUMBER = "BANK_CARD_NUMBER"
    IBAN_CODE = "IBAN_CODE"
    MEDICAL_CONDITION = "MEDICAL_CONDITION"
    NATIONAL_ID = "NATIONAL_ID"
    DRIVER_LICENSE = "DRIVER_LICENSE"
    ID_NUMBER_SUSPECT = "ID_NUMBER_SUSPECT"
    # Personal contact data, accounts, money, permissions, health/legal/financial matters.
    PHONE_NUMBER = "PHONE_NUMBER"
    EMAIL_ADDRESS = "EMAIL_ADDRESS"
    STREET_ADDRESS = "STREET_ADDRESS"
    ACCOUNT_INFO = "ACCOUNT_INFO"
    ORDER_INFO = "ORDER_INFO"
    FINANCIAL_INFO = "FINANCIAL_INFO"
    MONEY_AMOUNT = "MONEY_AMOUNT"
    PERMISSION_INFO = "PERMISSION_INFO"
    HEALTH_INFO = "HEALTH_INFO"
    LEGAL_INFO = "LEGAL_INFO"
    # Work context.
    JOB_TITLE = "JOB_TITLE"
    TEAM = "TEAM"
    PROJECT = "PROJECT"
    EMPLOYER = "EMPLOYER"
    TECH_STACK = "TECH_STACK"


SECRET_TYPES = frozenset(e for e in EntityType if e.startswith("SECRET_"))

_RESTRICTED = SECRET_TYPES | {
    EntityType.CN_RESIDENT_ID,
    EntityType.PASSPORT_NUMBER,
    EntityType.US_SSN,
    EntityType.BANK_CARD_NUMBER,
    # An IBAN is a bank account number that can be debited directly: treated like a card number.
    EntityType.IBAN_CODE,
    EntityType.MEDICAL_CONDITION,
    EntityType.NATIONAL_ID,
    # A driver licence number is a government id like a passport number.
    EntityType.DRIVER_LICENSE,
}
_HIGH = {
    # §7.3: phone numbers and addresses are not kept long-term by default; an e-mail address is
    # the same kind of personal contact identifier, so it is treated the same way.
    EntityType.PHONE_NUMBER,
    EntityType.EMAIL_ADDRESS,
    # Shaped like a mainland id next to an id word, but its check digit fails: still someone's id.
    EntityType.ID_NUMBER_SUSPECT,
    EntityType.STREET_ADDRESS,
    EntityType.ACCOUNT_INFO,
    EntityType.ORDER_INFO,
    EntityType.FINANCIAL_INFO,
    EntityType.MONEY_AMOUNT,
    EntityType.PERMISSION_INFO,
    EntityType.HEALTH_INFO,
    EntityType.LEGAL_INFO,
}
_MEDIUM = {
    EntityType.JOB_TITLE,
    EntityType.TEAM,
    EntityType.PROJECT,
    EntityType.EMPLOYER,
    EntityType.TECH_STACK,
}


def _levels() -> dict[EntityType, Sensitivity]:
    levels: dict[EntityType, Sensitivity] = {}
    for members, level in (
        (_RESTRICTED, Sensitivity.RESTRICTED),
        (_HIGH, Sensitivity.HIGH),
        (_MEDIUM, Sensitivity.MEDIUM),
    ):
        levels.update(dict.fromkeys(members, level))
    missing = set(EntityType) - levels.keys()
    if missing:
        raise AssertionError(f"entity types without a sensitivity level: {sorted(missing)}")
    return levels


ENTITY_LEVELS: Mapping[EntityType, Sensitivity] = MappingProxyType(_levels())
