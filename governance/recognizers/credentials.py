"""Secrets: provider keys and tokens, private keys, credentials in URLs, passwords said in words,
and long random-looking tokens. Everything found here is ``restricted`` (DESIGN rule 3).

Provider formats follow gitleaks' default rules, loosened on length where providers have changed
theirs over time; the prefixes keep them precise.
"""

from __future__ import annotations

import re

from governance.recognizers.checksums import (
    class_transition_rate,
    shannon_entropy,
    wordy_lowercase_fraction,
)
from governance.recognizers.entities import EntityType as E
from governance.recognizers.rules import (
    DIGITS,
    NOT_AFTER_ALNUM,
    NOT_BEFORE_ALNUM,
    SECRET_VALUE,
    Rule,
    has_letter_and_digit,
)

_TOKEN_BEFORE = r"(?<![0-9A-Za-z_-])"
_TOKEN_AFTER = r"(?![0-9A-Za-z_-])"

# Generic high-entropy rule. Measured on 30k random base62/base64/url-safe tokens against 8k
# identifiers built from programming words (camelCase, snake, kebab, paths, with numbers):
# entropy >= 3.8 bits/char, class transitions >= 0.45 and at most 75% of lowercase letters in
# word-like runs keeps ~90% of 20-24 char and ~98% of 32+ char random tokens, ~0.1% of identifiers.
# Upper, lower and digit are all required, so hex (git SHAs, UUIDs, hex digests) is never flagged
# here: a hex secret is only caught with a keyword ("api_key = …", SECRET_ASSIGNMENT).
HIGH_ENTROPY_MIN_LENGTH = 20
HIGH_ENTROPY_MIN_BITS_PER_CHAR = 3.8
HIGH_ENTROPY_MIN_TRANSITION_RATE = 0.45
HIGH_ENTROPY_MAX_WORDY_FRACTION = 0.75

_NOT_A_VALUE_WORDS = """
a an the my your our their his her its this that these those it in on at of for to from by with
and or not no none null nil empty blank unknown same different also still just now then here
there below above required optional needed mandatory incorrect correct wrong invalid valid
expired expiring weak strong secure insecure long short too very changed reset updated saved
stored kept set unset hidden masked redacted encrypted hashed protected managed rotated missing
forgotten lost case-sensitive sensitive ok okay fine good bad simple complex easy hard safe
being what which where when who whatever something anything nothing secret private personal
generated random temporary temp default shared manager
"""
_NOT_A_VALUE = frozenset(_NOT_A_VALUE_WORDS.split())
_PASSWORD_PRODUCTS = frozenset({"1password", "keepass", "keepassxc", "lastpass", "bitwarden", "dashlane"})
_PLACEHOLDER = re.compile(
    r"(?:<[^>]*>|\$\{?[A-Za-z_]\w*\}?|\{\{.*\}\}|%\(?\w*\)?s?|\*+|x{3,}|X{3,}|\.{3,}|…+|_+|-+|\?+)",
)


# Reading a secret from the environment or a vault is the advice, not the secret.
_ENV_LOOKUP = re.compile(r"(?:os\.(?:environ|getenv)|process\.env|getenv|System\.getenv|env\(|ENV\[|secrets\.|\$\{)")


def _plausible_value(value: str) -> bool:
    """False for words and placeholders that follow "password is" without being a password."""
    bare = value.rstrip(".!?:")
    if len(bare) < 3 or _PLACEHOLDER.fullmatch(bare) or _ENV_LOOKUP.match(bare):
        return False
    # "密码都存在 KeePass 里": where the passwords are kept, not one of them.
    return bare.lower() not in _NOT_A_VALUE and bare.lower() not in _PASSWORD_PRODUCTS


def _openai_body(match: re.Match[str]) -> bool:
    return has_letter_and_digit(match.group("body"))


def _slack_token(match: re.Match[str]) -> bool:
    return any(c.isdigit() for c in match.group(0))


def _connection_password(match: re.Match[str]) -> bool:
    return _plausible_value(match.group("password"))


def _password_value(match: re.Match[str]) -> bool:
    return _plausible_value(match.group("value"))


def _bare_password_value(match: re.Match[str]) -> bool:
    """Without "is" or ":" ("with password Winter2026!x") only a value mixing letters with digits
    or symbols counts, so "password manager" and "password reset" stay words — and so does "password
    rotation." (the sentence's full stop is not part of the value)."""
    value = match.group("value").rstrip(".,!?;:)\"'")
    return (
        _plausible_value(value)
        and any(c.isalpha() for c in value)
        and any(not c.isalpha() for c in value)
        and value.lower() not in _PASSWORD_PRODUCTS
    )


def _assigned_secret(match: re.Match[str]) -> bool:
    value = match.group("value")
    return _plausible_value(value) and has_letter_and_digit(value) and shannon_entropy(value) >= 3.0


def _in_url(text: str, start: int) -> bool:
    """URL paths and hosts often look random; credentials in URLs have rules of their own."""
    chunk_start = max(text.rfind(c, 0, start) for c in " \t\n\r") + 1
    chunk = text[chunk_start:start]
    return "://" in chunk or chunk.startswith("www.")


def looks_random(token: str) -> bool:
    """The generic high-entropy test; see the thresholds above."""
    core = token.rstrip("=")
    if len(core) < HIGH_ENTROPY_MIN_LENGTH:
        return False
    if not (any(c.isupper() for c in core) and any(c.islower() for c in core) and any(c.isdigit() for c in core)):
        return False
    if "/" in core and any(len(part) >= 3 and part.isalpha() and part.islower() for part in core.split("/")):
        return False
    return (
        shannon_entropy(core) >= HIGH_ENTROPY_MIN_BITS_PER_CHAR
        and class_transition_rate(core) >= HIGH_ENTROPY_MIN_TRANSITION_RATE
        and wordy_lowercase_fraction(core) <= HIGH_ENTROPY_MAX_WORDY_FRACTION
    )


def _high_entropy(match: re.Match[str]) -> bool:
    return not _in_url(match.string, match.start()) and looks_random(match.group(0))


def _token(entity: E, body: str, hints: tuple[str, ...]) -> Rule:
    return Rule(entity, re.compile(f"{_TOKEN_BEFORE}(?:{body}){_TOKEN_AFTER}"), hints=hints)


_SEPARATOR = r"\s*[\"']?\s*(?:[:=]|\bis\b|\bwas\b|\bwill be\b|是|为|為)\s*[\"'“‘]?\s*"
_PASSWORD_WORDS = r"(?i:passwords?|passwd|passphrase|pwd|pw|passcode|pass ?code|pass ?word)"
_SECRET_WORDS = (
    r"(?i:api[_ .-]?key|apikey|access[_ .-]?key(?:[_ .-]?(?:id|secret))?"
    r"|secret[_ .-]?(?:access[_ .-]?)?key|client[_ .-]?secret|app[_ .-]?secret"
    r"|(?:access|auth|refresh|bearer|api|session|personal[_ .-]?access)[_ .-]?token"
    r"|private[_ .-]?key|(?:storage[_ .-]?)?account[_ .-]?key|shared[_ .-]?access[_ .-]?key"
    r"|secret|token|credentials?)|密钥|秘钥|私钥|令牌|访问令牌"
)

CREDENTIAL_RULES: tuple[Rule, ...] = (
    _token(E.SECRET_ANTHROPIC_API_KEY, r"sk-ant-[A-Za-z0-9_-]{20,}", ("sk-ant-",)),
    Rule(
        E.SECRET_OPENAI_API_KEY,
        re.compile(
            rf"{_TOKEN_BEFORE}sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?"
            rf"(?P<body>[A-Za-z0-9_-]{{20,}}){_TOKEN_AFTER}"
        ),
        _openai_body,
        hints=("sk-",),
    ),
    _token(
        E.SECRET_GITHUB_TOKEN,
        r"gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    _token(
        E.SECRET_GITLAB_TOKEN,
        r"(?:glpat|gldt|glrt|glptt|glcbt|glsoat|glft|glimt|glagent|gloas)-[A-Za-z0-9_-]{20,}"
        r"|GR1348941[A-Za-z0-9_-]{20,}",
        (
            "glpat-",
            "gldt-",
            "glrt-",
            "glptt-",
            "glcbt-",
            "glsoat-",
            "glft-",
            "glimt-",
            "glagent-",
            "gloas-",
            "gr1348941",
        ),
    ),
    Rule(
        E.SECRET_AWS_ACCESS_KEY_ID,
        re.compile(r"(?<![0-9A-Z])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![0-9A-Z])"),
        hints=("a3t", "akia", "asia", "abia", "acca"),
    ),
    Rule(
        E.SECRET_AWS_SECRET_ACCESS_KEY,
        re.compile(
            r"(?i:aws)[^\n]{0,20}?(?i:secret)[^\n]{0,20}?[:=\s\"']\s*[\"']?"
            r"(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        group="value",
        hints=("aws",),
    ),
    _token(E.SECRET_GOOGLE_API_KEY, r"AIza[0-9A-Za-z_-]{35}", ("aiza",)),
    Rule(
        E.SECRET_SLACK_TOKEN,
        re.compile(
            rf"{NOT_AFTER_ALNUM}(?:xox[abposr]|xoxe(?:\.xox[bp])?|xapp)-[0-9A-Za-z-]{{10,}}"
            rf"{NOT_BEFORE_ALNUM}"
        ),
        _slack_token,
        hints=("xox", "xapp-"),
    ),
    Rule(
        E.SECRET_SLACK_WEBHOOK,
        re.compile(r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}"),
        hints=("hooks.slack.com",),
    ),
    _token(
        E.SECRET_STRIPE_KEY,
        r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}",
        ("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"),
    ),
    Rule(
        E.SECRET_ALIBABA_ACCESS_KEY_ID,
        re.compile(rf"{NOT_AFTER_ALNUM}LTAI[A-Za-z0-9]{{12,20}}{NOT_BEFORE_ALNUM}"),
        hints=("ltai",),
    ),
    Rule(
        E.SECRET_TENCENT_SECRET_ID,
        re.compile(rf"{NOT_AFTER_ALNUM}AKID[A-Za-z0-9]{{13,40}}{NOT_BEFORE_ALNUM}"),
        hints=("akid",),
    ),
    _token(E.SECRET_HUGGINGFACE_TOKEN, r"(?:hf_|api_org_)[A-Za-z0-9]{30,}", ("hf_", "api_org_")),
    _token(E.SECRET_NPM_TOKEN, r"npm_[A-Za-z0-9]{36}", ("npm_",)),
    _token(E.SECRET_PYPI_TOKEN, r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}", ("pypi-",)),
    _token(E.SECRET_SENDGRID_KEY, r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}", ("sg.",)),
    _token(E.SECRET_DIGITALOCEAN_TOKEN, r"do[por]_v1_[a-f0-9]{64}", ("dop_v1_", "doo_v1_", "dor_v1_")),
    Rule(
        E.SECRET_TELEGRAM_BOT_TOKEN,
        re.compile(r"(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])"),
        hints=(":aa",),
    ),
    _token(E.SECRET_JWT, r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*", ("eyj",)),
    Rule(
        E.SECRET_PRIVATE_KEY,
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d"),
        hints=("private key", "putty-user-key-file-"),
    ),
    Rule(
        E.SECRET_CONNECTION_STRING,
        re.compile(
            r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}://"
            r"[^\s:/?#@]*:(?P<password>[^\s@/?#]+)@[^\s/?#]+"
        ),
        _connection_password,
        hints=("://",),
    ),
    Rule(
        E.SECRET_PASSWORD,
        re.compile(
            rf"(?<![A-Za-z]){_PASSWORD_WORDS}(?:\s+(?i:for|of|to|on|at|in|from|with)(?:\s+[\w.@-]+){{1,3}}?)?"
            rf"{_SEPARATOR}(?P<value>{SECRET_VALUE}{{3,}})"
        ),
        _password_value,
        group="value",
        hints=("pass", "pwd"),
    ),
    Rule(
        E.SECRET_PASSWORD,
        re.compile(rf"(?<![A-Za-z])(?i:password|passwd|passphrase|pwd)\s+(?P<value>{SECRET_VALUE}{{6,}})"),
        _bare_password_value,
        group="value",
        hints=("pass", "pwd"),
    ),
    Rule(
        E.SECRET_PASSWORD,
        re.compile(
            r"(?:密码|密碼|口令)(?!学)[\u4e00-\u9fff]{0,6}?(?:是|为|為|成|:|=|\s)了?\s*[\"'“‘]?\s*"
            rf"(?P<value>{SECRET_VALUE}{{3,}})"
        ),
        _password_value,
        group="value",
        hints=("密码", "密碼", "口令"),
    ),
    Rule(
        E.SECRET_PASSWORD,
        re.compile(
            r"(?:(?<![A-Za-z])(?i:pin)(?:\s*(?i:code))?\s*(?i:is|[:=])|(?i:pin)码\s*(?:是|为|:|=)?)"
            r"\s*(?P<value>\d{4,8})(?!\d)"
        ),
        group="value",
        hints=("pin",),
    ),
    # ~/.pgpass (host:port:db:user:password), ~/.netrc, and passwords given on a command line.
    Rule(
        E.SECRET_PASSWORD,
        re.compile(r"(?m)^[\w.-]+:\d{2,5}:[^:\s]+:[^:\s]+:(?P<value>\S.*)$"),
        group="value",
        hints=DIGITS,
    ),
    Rule(
        E.SECRET_PASSWORD,
        re.compile(r"(?i:machine)\s+\S+\s+(?i:login)\s+\S+\s+(?i:password)\s+(?P<value>\S+)"),
        group="value",
        hints=("machine",),
    ),
    Rule(
        E.SECRET_PASSWORD,
        re.compile(
            r"(?:(?<![\w-])-p\s*['\"](?P<quoted>[^'\"]{3,})['\"]|(?:sshpass|redis-cli|mysql\w*|psql)\b[^\n]{0,40}?"
            r"\s-[pa]\s*(?P<value>[^\s'\"]{3,})|--password[= ]\s*['\"]?(?P<flag>[^\s'\"]{3,}))"
        ),
        hints=("-p", "-a", "--password"),
    ),
    Rule(
        E.SECRET_ASSIGNMENT,
        re.compile(
            rf"(?:{NOT_AFTER_ALNUM}(?:{_SECRET_WORDS}){_SEPARATOR}|(?<![A-Za-z])(?i:bearer)\s+)"
            r"(?P<value>[A-Za-z0-9_\-./+=~]{12,})"
        ),
        _assigned_secret,
        group="value",
        hints=("key", "secret", "token", "credential", "bearer", "密钥", "秘钥", "私钥", "令牌"),
    ),
    Rule(
        E.SECRET_HIGH_ENTROPY,
        re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/=_-])"),
        _high_entropy,
    ),
)

# When one of these overlaps a more specific secret, only the specific one is reported:
# "api_key: ghp_…" is a GitHub token, not a generic assignment of a random string.
GENERIC_SECRET_TIERS: dict[E, int] = {
    E.SECRET_PROVIDER_TOKEN: 1,
    E.SECRET_ASSIGNMENT: 2,
    E.SECRET_KEYWORD_VALUE: 2,
    E.SECRET_PASSWORD: 2,
    E.SECRET_HIGH_ENTROPY: 3,
}
